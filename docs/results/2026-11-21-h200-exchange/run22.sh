#!/usr/bin/env bash
# Session 8, run 22: where multi-wave partial-wave plans lose time: traces of 540 and 529 tile
# shapes (4 full waves + 12 or 1 tiles) at K = 8192, data-parallel against partial-wave plans.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
T="timeout 60 $g/run streamk-trace --traces 3"
n=0
run() { n=$((n+1)); echo "=== [$n] streamk-trace $*"; $T "$@" --csv $o/csv/$n.csv; }
{
  run 3456 5120 8192 --mode dp
  run 3456 5120 8192 --mode auto
  run 3456 5120 8192 --mode streamk --sk_tiles tail --blocks 132 --reduction separate
  run 3456 5120 8192 --mode streamk --sk_tiles tail --blocks 36 --reduction deterministic
  run 3456 5120 8192 --mode streamk --sk_tiles 144 --blocks 132 --reduction deterministic
  run 2944 5888 8192 --mode dp
  run 2944 5888 8192 --mode streamk --sk_tiles tail --blocks 33 --reduction separate
  run 2944 5888 8192 --mode streamk --sk_tiles 133 --blocks 132 --reduction deterministic
} > $o/trace.txt 2>&1
tar czf $o/csv.tgz -C $o csv && rm -rf $o/csv
grep -E "^===|^mode=|^untraced|^host|^per block|^streamk |^dp |^reduction " $o/trace.txt
