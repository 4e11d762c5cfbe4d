#!/usr/bin/env bash
# Session 8, run 21: the waveq set over decompositions with the faster take (run 20), to see
# which plan is best per shape (the planner's target) and refit the cost model.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
B="timeout 400 $g/run streamk-bench --warmup 3 --reps 9 --inner 5"
$B --set waveq --modes auto,dp,cublas,streamk,streamk:132@deterministic,streamk:132@separate,streamk-tail@separate,streamk-tail:12@separate,streamk-tail:33@separate,streamk-tail:66@separate,streamk-tail:12@deterministic,streamk-tail:33@deterministic \
  --csv $o/waveq.csv > $o/waveq.txt 2>$o/waveq.err
tail -16 $o/waveq.txt
