#!/usr/bin/env bash
# Session 55, run 297: every GPU test after the review's refactor (LoadsMisaligned serves PlanRows
# and DataParallelOverClusters; no pick moves over 6000 random shapes).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
