#!/usr/bin/env bash
# Session 17, run 83: compute-sanitizer memcheck on the repacking test (the copy kernel, its
# k tails and batch entries, and the kernel reading the copies), on run 82's build.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
timeout 500 compute-sanitizer --tool memcheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.Repacked*' > $o/sanitizer.log 2>&1
echo "memcheck rc $?"; grep -E "ERROR SUMMARY|PASSED|FAILED|OK \]" $o/sanitizer.log | tail -5
