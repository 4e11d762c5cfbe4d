#!/usr/bin/env bash
# Session 40, run 225: after the queried device takes its own L2 before the TMA configurations.
# The planner on the GPU (--device auto) for GPT-2's logits at 4096 tokens (kernel problem
# 50304 x 4096 x 768) and at 512, the GPU tests of the device spec and ping-pong, and auto against
# 128 x 256 tiles on three of check.txt's shapes.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
for s in "50304 4096 768" "50304 512 768"; do
  $g/run streamk-plan $s --device auto > $o/plan-${s// /x}.txt 2>&1; echo "plan $s exit $?"
  grep -E "^device|^problem|^predicted" $o/plan-${s// /x}.txt
done
timeout 200 $g/run streamk_gpu_tests --gtest_filter='GemmGpu.Kernel*:GemmGpu.PingPong*' \
  > $o/gpu_tests.txt 2>&1; echo "tests exit $?"; grep -E "PASSED|FAILED" $o/gpu_tests.txt
printf '4096 50304 768\n8192 8192 768\n512 50304 768\n' > $o/shapes.txt
timeout 100 $g/run streamk-bench --shapes $o/shapes.txt --modes auto,dp/128x256x64,cublas \
  --csv $o/shapes.csv > $o/shapes.out 2>&1; echo "bench exit $?"; grep -A8 "^shape\|^ *M " $o/shapes.out | head -20
cd $OUT && tar czf all.tgz r && rm -rf r && ls
