#!/usr/bin/env bash
# Session 44, run 248: the review's build (Compute takes the tile's columns from ExtentOf). Every
# GPU test, then the decode rows and edge shapes of shapes.txt once more, layout tn, fp16, against
# cuBLAS in the same call.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-narrow
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 420 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check.txt | head -30
timeout 100 $g/run streamk-bench --shapes $d/shapes.txt --modes auto,dp/128x128x64,cublas \
  --reps 31 --inner 5 --csv $o/final.csv > $o/final.txt 2>&1
echo "bench exit $?"; sed -n '/# summary/,$p' $o/final.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
