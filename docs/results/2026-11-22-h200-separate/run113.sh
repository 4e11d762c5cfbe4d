#!/usr/bin/env bash
# Session 21, run 113: after the review commit c0ef2cc (the GPU tests' KernelTiles helper, test
# code only): the two tests that use it, on every kernel configuration.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH="$g/lib"
timeout 300 $g/run streamk_gpu_tests --gtest_filter='GemmGpu.Forced*:GemmGpu.Edge*' > $o/review-tests.log 2>&1
echo "tests exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests ran" $o/review-tests.log
cd $OUT && tar czf all.tgz r && rm -rf r && ls
