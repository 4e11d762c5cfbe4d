#!/usr/bin/env bash
# Session 43, run 243: the final build (the narrow-A margin only with B's rows K-major on lines).
# Every GPU test, then shapes-moved.txt once more in both layouts: auto should run 64 x 128 tiles
# in tn and keep 128 x 128 (as before run 242's build) in nn.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-decode2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 400 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check.txt | head -30
for layout in tn nn; do
  timeout 100 $g/run streamk-bench --shapes $d/shapes-moved.txt --layout $layout \
    --modes auto,dp/128x128x64,dp/64x128x64,cublas --reps 31 --inner 5 \
    --csv $o/final-$layout.csv > $o/final-$layout.txt 2>&1
  echo "$layout exit $?"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
