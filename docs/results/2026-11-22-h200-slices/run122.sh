#!/usr/bin/env bash
# Session 22, run 122: the session's final kernel build (0442ec1; bundled as gpu-old/ for run 121,
# its GPU tests passed in run 119): the full benchmark in both dtypes (scripts/gpu_bench.sh), the
# issue's waveq command, separate-shapes.txt and decode-shapes.txt back to back, and the small
# shapes back to back and from CUDA graphs, as run 111 did for session 21's final build.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/old.tar.xz
g=$(pwd)/gpu-old; export LD_LIBRARY_PATH="$g/lib"
d=docs/results/2026-11-22-h200-separate
timeout 140 bash scripts/gpu_bench.sh $g $o fp16; echo "bench fp16 exit $?"
timeout 140 bash scripts/gpu_bench.sh $g $o bf16; echo "bench bf16 exit $?"
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
cd $OUT && tar czf all.tgz r && rm -rf r && ls
