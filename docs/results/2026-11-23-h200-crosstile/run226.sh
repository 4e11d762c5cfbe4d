#!/usr/bin/env bash
# Session 40, run 226: every GPU test (all three mainloops) on the final build (after 477a042, the
# queried GPU's L2 set before the TMA configurations).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
GPU_TEST_TIMEOUT=240 timeout 420 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
cd $OUT && tar czf all.tgz r && rm -rf r && ls
