#!/usr/bin/env bash
# Session 14, run 55: run 54 again after keeping the pass without C on plain stores; the epilogue also loads C by TMA (beta != 0, 16-bit C and D). Every GPU test,
# the sanitizers, then the build before it (fd38713's, ../gpu-old) and this one alternating: the
# waveq and llm sets (beta 0) and traces with beta 0 and 1.
set -u
g=$(cd "$(dirname "$0")" && pwd); old=$g/../gpu-old; o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
timeout 300 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
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
  timeout 120 $d/run streamk-bench --set waveq --modes auto,dp $R --csv $o/csv/$b-waveq$n.csv > /dev/null 2>&1; echo "$b waveq $n rc $?"
  timeout 120 $d/run streamk-bench --set llm --modes auto $R --csv $o/csv/$b-llm$n.csv > /dev/null 2>&1; echo "$b llm $n rc $?"
done
for args in "2944 3072 1024 --mode dp" "2432 1792 4096" "12288 2048 4096"; do
  for beta in 0 1; do
    for b in new old; do
      d=$g; [[ $b == old ]] && d=$old
      echo "=== $b streamk-trace $args --beta $beta" >> $o/trace.txt
      timeout 30 $d/run streamk-trace $args --beta $beta >> $o/trace.txt 2>&1
    done
  done
done
grep -E "^===|^checked|^untraced|^per block" $o/trace.txt
cd $o && tar czf csv.tgz csv && tar czf check.tgz check && rm -rf csv check
