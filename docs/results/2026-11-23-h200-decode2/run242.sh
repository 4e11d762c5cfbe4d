#!/usr/bin/env bash
# Session 43, run 242: the fifth tile for decode rows whose tokens are the kernel's A. The shapes
# whose pick the narrow-A margin moves (shapes-moved.txt; replay.txt: every move among m 1-64,
# n 1024-28672, k 1024-28672), auto (now 64 x 128) against data-parallel on 128 x 128 (auto's pick
# before) and on 64 x 128, and cuBLAS, layouts tn and nn, fp16, two passes; then every GPU test.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-decode2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
for pass in 1 2; do
  for layout in tn nn; do
    timeout 150 $g/run streamk-bench --shapes $d/shapes-moved.txt --layout $layout \
      --modes auto,dp/128x128x64,dp/64x128x64,cublas --reps 31 --inner 5 \
      --csv $o/moved-$layout-$pass.csv > $o/moved-$layout-$pass.txt 2>&1
    echo "$layout $pass exit $?"
  done
done
GPU_TEST_TIMEOUT=240 timeout 400 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check.txt | head -30
cd $OUT && tar czf all.tgz r && rm -rf r && ls
