#!/usr/bin/env bash
# Session 20, run 98: as run 97, with the next kernel released at the end of each block's work
# (LaunchDependents) instead of at its start, and one thread per block waiting.
# Every GPU test; the fp16 benchmark with the launch on and off, alternating; a trace of one-wave shapes; then the full
# benchmark in both dtypes. Run from the repository root with gpu-b/ carried.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH="$g/lib"
d=docs/results/2026-11-22-h200-pdl
timeout 240 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -12
for pass in 1 2; do
  for pdl in true false; do
    $g/run streamk-bench --set paper,waveq,llm --count 150 --seed 1 --dtype fp16 \
      --modes auto,dp,cublas --warmup 3 --reps 15 --inner 5 --programmatic_launch=$pdl \
      --csv $o/ab-$pdl-$pass.csv > $o/ab-$pdl-$pass.txt 2> /dev/null
    $g/run streamk-bench --shapes $d/small-shapes.txt --dtype fp16 \
      --modes auto,dp,cublas --warmup 5 --reps 31 --inner 10 --programmatic_launch=$pdl \
      --csv $o/small-$pdl-$pass.csv > $o/small-$pdl-$pass.txt 2> /dev/null
    echo "pass $pass pdl $pdl"; sed -n '/# summary/,$p' $o/ab-$pdl-$pass.txt | head -8
  done
done
for s in "2816 1536 1024 --mode dp" "1536 2816 1024 --mode dp" "2432 1792 1024" "2432 1792 4096"; do
  $g/run streamk-trace $s
done > $o/trace.txt 2>&1
grep -E "^===|untraced|span|per block" $o/trace.txt
timeout 130 bash scripts/gpu_bench.sh $g $o fp16; echo "bench fp16 exit $?"
timeout 130 bash scripts/gpu_bench.sh $g $o bf16; echo "bench bf16 exit $?"
cd $o && tar czf misc.tgz check check.txt && rm -rf check check.txt && cd $OUT && tar czf all.tgz r && rm -rf r && ls
