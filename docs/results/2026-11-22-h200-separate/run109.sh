#!/usr/bin/env bash
# Session 21, run 109: partial stores and separate reductions that skip fragments outside D,
# the turnstile's and atomics' later steps unpredicated (this build, gpu/) against 14fb8d8
# (gpu-old/), from CUDA graphs, fp16, alternating; then every GPU test, the full benchmark in
# both dtypes (scripts/gpu_bench.sh), the issue's waveq command and the small shapes.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/old.tar.xz
g=$(pwd)/gpu; go=$(pwd)/gpu-old
export LD_LIBRARY_PATH="$g/lib"
d=docs/results/2026-11-22-h200-separate
m=auto,dp,splitk:3,splitk:4@separate,splitk:8@separate,streamk,cublas
for pass in 1 2 3; do
  for b in old new; do
    bb=$g; [ $b = old ] && bb=$go
    for s in decode separate llm; do
      src="--shapes $d/$s-shapes.txt"; [ $s = llm ] && src="--set llm"
      $bb/run streamk-bench $src --dtype fp16 --graph --modes $m --warmup 3 --reps 15 --inner 5 \
        --csv $o/graph-$s-$b-$pass.csv > $o/graph-$s-$b-$pass.txt 2> $o/graph-$s-$b-$pass.err
      echo "$s $b $pass exit $? errors $(grep -c ERROR $o/graph-$s-$b-$pass.txt)"
    done
  done
done
timeout 300 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -12
timeout 130 bash scripts/gpu_bench.sh $g $o fp16; echo "bench fp16 exit $?"
timeout 130 bash scripts/gpu_bench.sh $g $o bf16; echo "bench bf16 exit $?"
$g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2> /dev/null
echo "waveq command exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
$g/run streamk-bench --shapes docs/results/2026-11-22-h200-pdl/small-shapes.txt --dtype fp16 \
  --modes auto,dp,cublas --warmup 5 --reps 31 --inner 10 --csv $o/small.csv > $o/small.txt 2> /dev/null
$g/run streamk-bench --shapes docs/results/2026-11-22-h200-pdl/small-shapes.txt --dtype fp16 --graph \
  --modes auto,dp,cublas --warmup 5 --reps 31 --inner 10 --csv $o/small-graph.csv > $o/small-graph.txt 2> /dev/null
cd $o && tar czf misc.tgz check check.txt && rm -rf check check.txt && cd $OUT && tar czf all.tgz r && rm -rf r && ls
