#!/usr/bin/env bash
# Session 18, run 90: compute-sanitizer memcheck and synccheck on the cluster configuration's
# test (multicast loads into both blocks, arrivals on the other block's barriers, the cluster
# barriers at start and exit), on run 88's build.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
for tool in memcheck synccheck; do
  timeout 280 compute-sanitizer --tool $tool $g/streamk_gpu_tests --gtest_filter='GemmGpu.ClusterTile*' > $o/$tool.log 2>&1
  echo "$tool rc $?"; grep -E "ERROR SUMMARY|PASSED|FAILED|OK \]" $o/$tool.log | tail -4
done
