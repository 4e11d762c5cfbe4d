#!/usr/bin/env bash
# Session 23, run 126: after the review commit (the GPU tests' every-layout-and-mode loop as one
# helper, ExpectCorrectEverywhere; CheckTile's message line joined), the tests that use the helper
# and the forced-tile tests again, on the H200.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
timeout 400 $g/run streamk_gpu_tests \
  --gtest_filter='GemmGpu.EveryMode*:GemmGpu.Cluster*:GemmGpu.MidTile*:GemmGpu.Forced*' > $o/review-tests.log 2>&1
echo "tests exit $?"; grep -E "^\[  (PASSED|FAILED|  OK|SKIPPED) " $o/review-tests.log
cd $OUT && tar czf all.tgz r && rm -rf r && ls
