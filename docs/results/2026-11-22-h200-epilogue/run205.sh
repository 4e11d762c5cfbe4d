#!/usr/bin/env bash
# Session 37, run 205: every GPU test with all three mainloops after the tests' alpha change
# (ExpectCorrectEverywhere scales by alpha 0.75 in half its layouts, ExpectTileCorrectEverywhere's
# padded bf16 batch too), so that both of the epilogue's stagings (StageMatrices unscaled where
# alpha == 1, scaled otherwise) run on every kernel configuration, mode and reduction.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
GPU_TEST_TIMEOUT=240 timeout 560 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
cd $OUT && tar czf all.tgz r && rm -rf r && ls
