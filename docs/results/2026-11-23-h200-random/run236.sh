#!/usr/bin/env bash
# Session 42, run 236: every GPU test (scripts/gpu_check.sh, all three mainloops, the random
# problems included) on the final build, after the review's planner commits (c4497be, f3f58a7:
# the explanation's bookkeeping, no plan changed).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
start=$(date +%s)
GPU_TEST_TIMEOUT=240 timeout 480 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? in $(( $(date +%s) - start )) s" | tee -a $o/summary.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
