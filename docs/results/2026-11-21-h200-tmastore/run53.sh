#!/usr/bin/env bash
# Session 14, run 53: the TMA and mbarrier wrappers moved into kernels/tma.cuh (no code change) and
# streamk-trace --beta. Every GPU test, and traces with beta 0 (D stored by TMA) against beta 1 (C
# read: the epilogue's own two passes).
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
timeout 300 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | tail -14
for args in "2944 3072 1024 --mode dp" "2432 1792 4096"; do
  for beta in 0 1; do
    echo "=== streamk-trace $args --beta $beta" >> $o/trace.txt
    timeout 30 $g/run streamk-trace $args --beta $beta >> $o/trace.txt 2>&1
  done
done
grep -E "^===|^checked|^untraced|^per block" $o/trace.txt
cd $o && tar czf check.tgz check && rm -rf check
