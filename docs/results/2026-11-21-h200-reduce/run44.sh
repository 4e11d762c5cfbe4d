#!/usr/bin/env bash
# Session 13, run 44: a separate reduction's slice summed in one round of loads (Fixup::
# SumSliceToStage) against the two 64-row passes before it. Every GPU test on the new build, then
# the waveq set in the tail decompositions that use a separate reduction, old and new builds
# alternating, and traces of the one-tile tail at K = 1024 and 4096.
set -u
g=$(cd "$(dirname "$0")" && pwd); old=$g/../gpu-old; o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
timeout 400 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | tail -12
R="--warmup 3 --reps 9 --inner 5"
W="--set waveq --modes auto,dp,streamk-tail@separate,streamk-tail:8@separate,streamk-tail:16@separate,streamk-tail:33@separate,streamk@separate"
for b in new old new old; do
  d=$g; [[ $b == old ]] && d=$old
  n=$(ls $o/csv | grep -c "^$b") || true
  timeout 120 $d/run streamk-bench $W $R --csv $o/csv/$b$n.csv > $o/waveq-$b$n.txt 2>/dev/null; echo "$b$n rc $?"
done
for k in 1024 4096; do
  for b in new old; do
    d=$g; [[ $b == old ]] && d=$old
    for m in "" "--blocks 8"; do
      echo "=== $b streamk-trace 2432 1792 $k --mode streamk --sk_tiles tail --reduction separate $m" >> $o/trace.txt
      timeout 30 $d/run streamk-trace 2432 1792 $k --mode streamk --sk_tiles tail --reduction separate $m >> $o/trace.txt 2>&1
    done
  done
done
grep -E "^===|^untraced|span|^reduction|^streamk " $o/trace.txt
cd $o && tar czf csv.tgz csv && tar czf check.tgz check && rm -rf csv check
