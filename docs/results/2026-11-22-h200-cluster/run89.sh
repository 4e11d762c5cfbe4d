#!/usr/bin/env bash
# Session 18, run 89: the paper set (fp16) on the cluster configuration forced, data-parallel and
# auto's decomposition, beside auto and dp: where would clusters have paid that auto leaves on
# blocks? Run from the directory holding gpu/.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
timeout 300 $g/run streamk-bench --set paper --count 150 --seed 1 --dtype fp16 \
  --modes auto,dp,dp/256x256x64,auto/256x256x64 --warmup 3 --reps 15 --inner 5 \
  --csv $o/paper-clusters.csv > $o/paper-clusters.txt 2> $o/paper-clusters.err
echo "rc $?"; sed -n '/# summary/,$p' $o/paper-clusters.txt; tail -3 $o/paper-clusters.err
