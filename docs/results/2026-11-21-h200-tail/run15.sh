#!/usr/bin/env bash
# Session 7, run 15: reduction blocks load 4 peers' slices at once. Every GPU test; traces of the
# partial-wave decomposition over block counts and slicings (the cost model's reduction terms);
# the waveq set over block counts.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bash $g/gpu_check.sh $g $o > $o/check.txt 2>&1; echo "gpu_check exit $?"; tail -7 $o/check.txt
T="timeout 60 $g/run streamk-trace --traces 3"
for shape in "2432 1792 4096" "2432 1792 1024" "2944 3072 4096"; do
  for b in 2 4 8 16 33 66 132; do
    for r in 1 4 32; do
      echo "=== streamk-trace $shape --blocks $b --reduction_slices $r"
      $T $shape --mode streamk --sk_tiles tail --blocks $b --reduction separate --reduction_slices $r
    done
  done
done > $o/trace.txt 2>&1
grep -c "^span" $o/trace.txt
B="timeout 200 $g/run streamk-bench --warmup 3 --reps 9 --inner 5"
$B --set waveq --modes auto,dp,streamk,streamk-tail@separate,streamk-tail:12@separate,streamk-tail:33@separate,streamk-tail:66@separate,streamk-tail:132@separate --csv $o/waveq.csv > $o/waveq.txt 2>$o/waveq.err
tail -12 $o/waveq.txt
