#!/usr/bin/env bash
# Session 14, run 51: a releaser warp releases the flags of published partials, so that no compute
# warp stalls on a release. Every GPU test, the sanitizers, then the build before it (b597cc2's,
# ../gpu-old) and this one alternating on the waveq and paper sets, and traces.
set -u
g=$(cd "$(dirname "$0")" && pwd); old=$g/../gpu-old; o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
timeout 400 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | tail -14
{ date -u; compute-sanitizer --version | head -2
  echo "## memcheck"; timeout 150 compute-sanitizer --tool memcheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode:GemmGpu.TraceRecords*' 2>&1 | tail -4
  echo "## racecheck"; timeout 150 compute-sanitizer --tool racecheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode' 2>&1 | tail -4
  echo "## synccheck"; timeout 100 compute-sanitizer --tool synccheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode' 2>&1 | tail -4
} > $o/sanitizer.log 2>&1
grep -E "^##|SUMMARY|PASSED|FAILED" $o/sanitizer.log
R="--warmup 3 --reps 9 --inner 5"
for b in new old new old; do
  d=$g; [[ $b == old ]] && d=$old
  n=$(ls $o/csv | grep -c "^$b-waveq") || true
  timeout 120 $d/run streamk-bench --set waveq --modes auto,dp,streamk $R --csv $o/csv/$b-waveq$n.csv > /dev/null 2>&1; echo "$b waveq $n rc $?"
  timeout 120 $d/run streamk-bench --set paper --count 150 --seed 1 --modes auto,streamk $R --csv $o/csv/$b-paper$n.csv > /dev/null 2>&1; echo "$b paper $n rc $?"
done
for args in "2432 1792 4096 --mode streamk" "2432 1792 1024 --mode streamk" "1536 3072 4096" "2944 3072 4096"; do
  for b in new old; do
    d=$g; [[ $b == old ]] && d=$old
    echo "=== $b streamk-trace $args" >> $o/trace.txt
    timeout 30 $d/run streamk-trace $args >> $o/trace.txt 2>&1
  done
done
grep -E "^===|^untraced|^per block|^streamk " $o/trace.txt | head -60
cd $o && tar czf csv.tgz csv && tar czf check.tgz check && rm -rf csv check
