#!/usr/bin/env bash
# Session 18, run 91: after the review (KernelOccupancy and ClusterSlots share one loop over the
# kernels): the occupancy, cluster and forced-tile tests, and what the planner picks on the GPU
# for a K-misaligned shape.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
timeout 300 $g/streamk_gpu_tests --gtest_filter='GemmGpu.Kernel*:GemmGpu.Cluster*:GemmGpu.Forced*:GemmGpu.Hopper*' > $o/tests.log 2>&1
echo "tests rc $?"; grep -E "device |OK \]|FAILED|PASSED" $o/tests.log
$g/run streamk-plan 4096 4096 4104 --device auto > $o/plan.txt 2>&1; grep -E "^device|^reason" $o/plan.txt
