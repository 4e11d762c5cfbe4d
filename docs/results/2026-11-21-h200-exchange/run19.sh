#!/usr/bin/env bash
# Session 8, run 19: where one-wave-plus-a-bit shapes lose time. Per-piece traces (CSV) of
# data-parallel, all-tiles Stream-K and partial-wave plans on 133 and 136 tile shapes, and a
# 132-tile shape as the one-wave reference, at K = 1024, 4096, 8192.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $o/env.txt
T="timeout 60 $g/run streamk-trace --traces 3"
n=0
run() { n=$((n+1)); echo "=== [$n] streamk-trace $*"; $T "$@" --csv $o/csv/$n.csv; }
{
for k in 1024 4096 8192; do
  run 2816 1536 $k --mode dp
  run 2432 1792 $k --mode dp
  run 2432 1792 $k --mode streamk
  run 2432 1792 $k --mode streamk --blocks 132 --reduction deterministic
  run 2432 1792 $k --mode streamk --blocks 132 --reduction separate
  run 2432 1792 $k --mode streamk --sk_tiles tail --blocks 132 --reduction separate
  run 2432 1792 $k --mode streamk --sk_tiles tail --blocks 12 --reduction separate
  run 2176 2048 $k --mode streamk
done
} > $o/trace.txt 2>&1
tar czf $o/csv.tgz -C $o csv && rm -rf $o/csv
grep -E "^===|^mode=|^untraced|^span|^per block|^streamk |^dp |^reduction " $o/trace.txt | head -400
