#!/usr/bin/env bash
# Session 5, run 8: the TMA kernel in 128x256 and 128x128 tiles, the planner picking per shape: tests, sanitizers,
# benchmarks, traces. Everything lands in $OUT/r.tar.gz.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
start=$(date +%s)
part=${1:-all}  # 1: tests, sanitizers, demo, fp16 bench; 2: the rest (two calls of <= 10 min)
if [[ $part != 2 ]]; then
bash $g/gpu_check.sh $g $o > $o/check.txt 2>&1; echo "gpu_check exit $?"; tail -7 $o/check.txt
{ date -u; compute-sanitizer --version | head -2
  echo "## memcheck"; timeout 200 compute-sanitizer --tool memcheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode:GemmGpu.TraceRecords*' 2>&1 | tail -4
  echo "## racecheck"; timeout 200 compute-sanitizer --tool racecheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode' 2>&1 | tail -4
  echo "## synccheck"; timeout 120 compute-sanitizer --tool synccheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode' 2>&1 | tail -4
} > $o/sanitizer.log 2>&1
grep -E "SUMMARY" $o/sanitizer.log
$g/run streamk-demo 4096 4096 4096 > $o/demo.log 2>&1
timeout 280 bash $g/gpu_bench.sh $g $o fp16 > /dev/null; echo "fp16 exit $?"; grep -E "^(paper|waveq|llm) +(dp|cublas) " $o/bench-fp16.txt
fi
if [[ $part != 1 ]]; then
timeout 280 bash $g/gpu_bench.sh $g $o bf16 > /dev/null; echo "bf16 exit $?"; grep -E "^(paper|waveq|llm) +(dp|cublas) " $o/bench-bf16.txt
{ echo "# streamk-bench --set waveq --modes auto,dp,splitk,cublas"
  timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas 2>&1; } > $o/waveq-issue-command.txt
grep -E "^waveq +(dp|splitk|cublas) " $o/waveq-issue-command.txt
timeout 60 $g/run streamk-bench --shapes $g/calibration.txt --modes auto,dp,splitk,streamk,cublas --warmup 3 --reps 9 --inner 5 > $o/calib.txt 2>/dev/null; echo "calib exit $?"

for s in "1408 3072 4096 --mode dp" "1536 3072 4096" "1536 3072 4096 --mode dp" "1536 5888 4096" "2560 5120 4096" "1536 3072 1024" "1536 3072 1024 --mode streamk" "1536 3072 8192" "1536 3072 8192 --mode dp"; do
  echo "=== streamk-trace $s" >> $o/trace.txt; timeout 30 $g/run streamk-trace $s >> $o/trace.txt 2>&1
done
for d in fp16 bf16; do
  { echo "# streamk-bench --shapes sameplan-small-shapes.txt --dtype $d --modes auto,dp --warmup 5 --reps 31 --inner 5"
    timeout 60 $g/run streamk-bench --shapes $g/sameplan-small-shapes.txt --dtype $d --modes auto,dp --warmup 5 --reps 31 --inner 5 2>/dev/null; } > $o/sameplan-small-$d.txt
  grep -E "^file +dp " $o/sameplan-small-$d.txt
done
timeout 120 $g/run gemm_benchmark --benchmark_min_time=0.05 > $o/gemm_benchmark.txt 2>&1
$g/run streamk-trace 1536 3072 4096 --csv $o/trace-1536x3072x4096-streamk.csv > /dev/null 2>&1
fi
cd $OUT && tar czf r$part.tar.gz r && rm -rf r
echo "total $(( $(date +%s) - start )) s"
