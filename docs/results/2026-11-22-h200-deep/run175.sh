#!/usr/bin/env bash
# Session 32, run 175: after the review commit (BestSplitK derives each split once; no pick
# changes). Every GPU test, then the issue's waveq command.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 400 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
timeout 150 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2> $o/waveq.err
echo "waveq exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
