#!/usr/bin/env bash
# Session 13, run 46: the review commit that sums peers through one Fixup::SumPeers for both
# reduction paths (a kernel change with no intended behaviour change). Every GPU test, the issue's
# waveq command, and the separate-reduction decompositions of the waveq set with the build before
# it (6a34aa4's, ../gpu-old) alternating, plus traces of the one-tile tail.
set -u
g=$(cd "$(dirname "$0")" && pwd); old=$g/../gpu-old; o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
timeout 400 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | tail -12
timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
R="--warmup 3 --reps 9 --inner 5"
W="--set waveq --modes auto,dp,streamk-tail@separate,streamk-tail:8@separate,streamk@separate,cublas"
for b in new old new old; do
  d=$g; [[ $b == old ]] && d=$old
  n=$(ls $o/csv | grep -c "^$b") || true
  timeout 120 $d/run streamk-bench $W $R --csv $o/csv/$b$n.csv > /dev/null 2>&1; echo "$b$n rc $?"
done
for k in 1024 4096; do
  for b in new old; do
    d=$g; [[ $b == old ]] && d=$old
    echo "=== $b streamk-trace 2432 1792 $k --mode streamk --sk_tiles tail --reduction separate" >> $o/trace.txt
    timeout 30 $d/run streamk-trace 2432 1792 $k --mode streamk --sk_tiles tail --reduction separate >> $o/trace.txt 2>&1
  done
done
grep -E "^===|^untraced|^reduction" $o/trace.txt
cd $o && tar czf csv.tgz csv && tar czf check.tgz check && rm -rf csv check
