#!/usr/bin/env bash
# Session 18, run 92: after the second review (the occupancy queries run KernelArch with the
# queried device current; MakePlan keeps its chosen option in std::optional): every GPU test, and
# the K-misaligned pairs (auto, dp, the cluster tile, cuBLAS) to see auto's picks unchanged.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
timeout 300 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED|device NVIDIA" $o/check.txt $o/check/gpu_tests.log | tail -10
timeout 90 $g/run streamk-bench --shapes $g/kmis-pairs.txt --modes auto,dp,dp/256x256x64,cublas --reps 15 > $o/pairs-auto.txt 2>/dev/null
echo "pairs rc $?"; grep -v "^#" $o/pairs-auto.txt | head -24
cd $o && tar czf check.tgz check check.txt && rm -rf check check.txt
