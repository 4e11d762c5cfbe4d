#!/usr/bin/env bash
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
for k in 1024 4096; do
  for m in "" "--reduction_slices 8" "--reduction_slices 64" "--blocks 4" "--blocks 8"; do
    echo "=== streamk-trace 2432 1792 $k --mode streamk --sk_tiles tail --reduction separate $m" >> $o/trace.txt
    timeout 30 $g/run streamk-trace 2432 1792 $k --mode streamk --sk_tiles tail --reduction separate $m >> $o/trace.txt 2>&1
  done
done
grep -E "^===|^mode|span|per block|pieces" $o/trace.txt
