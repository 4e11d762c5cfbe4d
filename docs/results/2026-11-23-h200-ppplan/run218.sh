#!/usr/bin/env bash
# Session 39, run 218: every GPU test (scripts/gpu_check.sh: the TMA, mma.sync and cp.async
# mainloops) on run 217's build; run 219: the same after the test change (a packed A for the
# trace of GemmGpu.PingPongEveryLayoutEpilogueAndTileCount).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
GPU_TEST_TIMEOUT=240 timeout 560 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "check exit $?"; grep -E "chunk|FAILED" $o/check/gpu_tests.log | head -30
cd $OUT && tar czf all.tgz r && rm -rf r && ls
