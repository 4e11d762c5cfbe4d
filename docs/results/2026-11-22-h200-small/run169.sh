#!/usr/bin/env bash
# Session 31, run 169: the planner weighs the 64 x 128 tile (one round of its tiles, the other
# tiles' pick predicted 8 us or more). Every GPU test (the mainloop tests now include the tile);
# from CUDA graphs, auto against cuBLAS on the small, decode and few-tile shapes; back to back,
# few very deep tiles with Stream-K and split-K on either 128-wide tile; then the benchmark behind
# docs/performance.md's Results table (scripts/gpu_bench.sh), fp16.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-22-h200-separate
s=docs/results/2026-11-22-h200-small
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 400 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
for f in $s/small-shapes.txt $d/decode-shapes.txt $d/separate-shapes.txt; do
  n=$(basename $f .txt)
  timeout 60 $g/run streamk-bench --shapes $f --dtype fp16 --graph --modes auto,dp/128x128x64,cublas \
    --warmup 3 --reps 15 --inner 5 --csv $o/graph-$n.csv > $o/graph-$n.txt 2> $o/graph-$n.err
  echo "graph $n exit $? errors $(grep -c ERROR $o/graph-$n.txt)"; sed -n '/# summary/,$p' $o/graph-$n.txt
done
timeout 90 $g/run streamk-bench --shapes $s/deep-shapes.txt --dtype fp16 --reps 15 \
  --modes auto,splitk/128x128x64,streamk/128x128x64,splitk/64x128x64,streamk/64x128x64,cublas \
  --csv $o/deep.csv > $o/deep.txt 2> $o/deep.err
echo "deep exit $?"; sed -n '4,12p' $o/deep.txt
timeout 280 bash scripts/gpu_bench.sh $g $o fp16; echo "bench fp16 exit $?"
cd $OUT && tar czf all.tgz r && rm -rf r && ls
