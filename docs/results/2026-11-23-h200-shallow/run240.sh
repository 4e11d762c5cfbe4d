#!/usr/bin/env bash
# Session 43, run 240: the final build (packed rings reverted; streamk-bench records the
# planner's predictions). Every GPU test (scripts/gpu_check.sh), the issue's waveq command, and
# the full bf16 benchmark (scripts/gpu_bench.sh) with the prediction summary.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 420 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check.txt | head -30
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  > $o/waveq-issue-command.txt 2>&1
echo "waveq exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
timeout 100 bash scripts/gpu_bench.sh $g $o bf16; echo "bench bf16 exit $?"
cd $OUT && tar czf all.tgz r && rm -rf r && ls
