#!/usr/bin/env bash
# Session 32, run 174: the final build (split-K past 16 ways with a separate reduction; the
# 64 x 128 tile's exchange refitted, its separate reduction weighed, and a 15% margin where the
# other tiles' split-K fills the SMs). Every GPU test; from CUDA graphs, auto against cuBLAS on
# the deep, decode, few-tile and small shapes; the benchmark behind docs/performance.md's Results
# table (scripts/gpu_bench.sh), fp16 and bf16; the issue's waveq command.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-22-h200-separate
s=docs/results/2026-11-22-h200-small
e=docs/results/2026-11-22-h200-deep
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 400 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
for f in $e/deep-shapes.txt $d/decode-shapes.txt $d/separate-shapes.txt $s/small-shapes.txt; do
  n=$(basename $f .txt)
  timeout 60 $g/run streamk-bench --shapes $f --dtype fp16 --graph --modes auto,dp/128x128x64,cublas \
    --warmup 3 --reps 15 --inner 5 --csv $o/graph-$n.csv > $o/graph-$n.txt 2> $o/graph-$n.err
  echo "graph $n exit $? errors $(grep -c -E 'ERROR|WRONG' $o/graph-$n.txt)"; sed -n '/# summary/,$p' $o/graph-$n.txt
done
for dt in fp16 bf16; do
  timeout 200 bash scripts/gpu_bench.sh $g $o $dt; echo "bench $dt exit $?"
done
timeout 150 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2> $o/waveq.err
echo "waveq exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
