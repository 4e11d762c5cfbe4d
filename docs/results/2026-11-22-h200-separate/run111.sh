#!/usr/bin/env bash
# Session 21, run 111: the final build of the session (d58ab22): every GPU test, the full
# benchmark in both dtypes (scripts/gpu_bench.sh), the issue's waveq command, the small shapes
# back to back and from CUDA graphs, and separate-shapes.txt and decode-shapes.txt back to back.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH="$g/lib"
d=docs/results/2026-11-22-h200-separate
timeout 300 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -12
timeout 130 bash scripts/gpu_bench.sh $g $o fp16; echo "bench fp16 exit $?"
timeout 130 bash scripts/gpu_bench.sh $g $o bf16; echo "bench bf16 exit $?"
$g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2> /dev/null
echo "waveq command exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
for s in separate decode; do
  $g/run streamk-bench --shapes $d/$s-shapes.txt --dtype fp16 --modes auto,dp,splitk,streamk,cublas \
    --warmup 3 --reps 31 --inner 5 --csv $o/$s.csv > $o/$s.txt 2> /dev/null
  echo "$s exit $?"; sed -n '/# summary/,$p' $o/$s.txt
done
for t in launch graph; do
  f=""; [ $t = graph ] && f=--graph
  $g/run streamk-bench --shapes docs/results/2026-11-22-h200-pdl/small-shapes.txt --dtype fp16 $f \
    --modes auto,dp,cublas --warmup 5 --reps 31 --inner 10 --csv $o/small-$t.csv > $o/small-$t.txt 2> /dev/null
done
cd $o && tar czf misc.tgz check check.txt && rm -rf check check.txt && cd $OUT && tar czf all.tgz r && rm -rf r && ls
