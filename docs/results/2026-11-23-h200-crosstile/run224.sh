#!/usr/bin/env bash
# Session 40, run 224: the final build again. Every GPU test (all three mainloops), the issue's
# waveq command, and a --shapes FILE run of check.txt (auto, dp, split-K, cuBLAS).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 420 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
timeout 150 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  > $o/waveq-issue-command.txt 2> $o/waveq.err
echo "waveq exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
timeout 100 $g/run streamk-bench --shapes docs/results/2026-11-23-h200-crosstile/check.txt \
  --modes auto,dp,splitk,cublas --csv $o/check-shapes.csv > $o/check-shapes.txt 2> $o/check-shapes.err
echo "shapes exit $?"; sed -n '/# summary/,$p' $o/check-shapes.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
