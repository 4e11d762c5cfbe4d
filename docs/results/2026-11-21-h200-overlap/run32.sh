#!/usr/bin/env bash
# Session 10, run 32: the same build as run 31 (partial-round overlap term): the full bf16
# benchmark (scripts/gpu_bench.sh), the issue's waveq command once more, and the sanitizers over
# the GEMM tests of every mode.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
timeout 300 bash $g/gpu_bench.sh $g $o bf16; echo "bench exit $?"
timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command: $(grep -E '^waveq +dp ' $o/waveq-issue-command.txt)"
{ date -u; compute-sanitizer --version | head -2
  echo "## memcheck"; timeout 200 compute-sanitizer --tool memcheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode:GemmGpu.TraceRecords*' 2>&1 | tail -4
  echo "## racecheck"; timeout 200 compute-sanitizer --tool racecheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode' 2>&1 | tail -4
  echo "## synccheck"; timeout 120 compute-sanitizer --tool synccheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode' 2>&1 | tail -4
} > $o/sanitizer.log 2>&1
grep -E "^##|SUMMARY|PASSED|FAILED" $o/sanitizer.log
cd $o && tar czf csv.tgz bench-bf16.csv bench-bf16.json bench-bf16.err && rm -f bench-bf16.csv bench-bf16.json bench-bf16.err
