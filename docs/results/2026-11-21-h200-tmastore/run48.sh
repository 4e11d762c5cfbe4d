#!/usr/bin/env bash
# Session 14, run 48: the TMA-store epilogue, kept only where D's rows end on a 16-byte boundary
# (run 47: TMA stores wrote whole 16-byte chunks past n). Every GPU test, the sanitizers, the
# issue's command, and the waveq set's tail decompositions for the planner.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
timeout 400 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | tail -14
{ date -u; compute-sanitizer --version | head -2
  echo "## memcheck"; timeout 150 compute-sanitizer --tool memcheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode:GemmGpu.TraceRecords*' 2>&1 | tail -4
  echo "## racecheck"; timeout 150 compute-sanitizer --tool racecheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode' 2>&1 | tail -4
  echo "## synccheck"; timeout 100 compute-sanitizer --tool synccheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode' 2>&1 | tail -4
} > $o/sanitizer.log 2>&1
grep -E "^##|SUMMARY|PASSED|FAILED" $o/sanitizer.log
timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
W="--set waveq --modes auto,dp,streamk,streamk-tail@separate,streamk-tail:8@separate,streamk-tail:16@separate,streamk-tail:33@separate,streamk@separate"
timeout 150 $g/run streamk-bench $W --warmup 3 --reps 9 --inner 5 --csv $o/csv/waveq-modes.csv > $o/waveq-modes.txt 2>/dev/null; echo "modes rc $?"
cd $o && tar czf csv.tgz csv && tar czf check.tgz check && rm -rf csv check
