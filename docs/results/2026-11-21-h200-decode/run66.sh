#!/usr/bin/env bash
# Session 16, run 66: the build of run 65 (the 128 x 128 ring at 5 stages): the sanitizers, the
# full benchmark (scripts/gpu_bench.sh, now 31 repetitions) in fp16 and bf16, the issue's waveq
# command twice, the waveq set against data-parallel on each tile, a trace, with the SM clock,
# power and clock event reasons logged every 50 ms. Run from the directory holding gpu/.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
q=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active
nvidia-smi --query-gpu=$q --format=csv -lms 50 > $o/smi.csv 2>&1 &
smi=$!
{ date -u; compute-sanitizer --version | head -2
  f='GemmGpu.SmallShapesEveryMode:GemmGpu.ForcedTileRunsThatKernel'
  echo "## memcheck"; timeout 150 compute-sanitizer --tool memcheck $g/streamk_gpu_tests --gtest_filter="$f:GemmGpu.TraceRecords*" 2>&1 | tail -4
  echo "## racecheck"; timeout 150 compute-sanitizer --tool racecheck $g/streamk_gpu_tests --gtest_filter="$f" 2>&1 | tail -4
  echo "## synccheck"; timeout 100 compute-sanitizer --tool synccheck $g/streamk_gpu_tests --gtest_filter="$f" 2>&1 | tail -4
} > $o/sanitizer.log 2>&1
grep -E "^##|SUMMARY|PASSED|FAILED" $o/sanitizer.log
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
for dt in fp16 bf16; do echo "$(date +%T.%N) bench $dt" >> $o/marks.txt; timeout 200 bash $g/gpu_bench.sh $g $o $dt; echo "bench $dt exit $?"; done
echo "$(date +%T.%N) end" >> $o/marks.txt
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command-2.txt 2>/dev/null
echo "issue command (again) rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command-2.txt
timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,dp/128x256x64,dp/128x128x64 --reps 31 --csv $o/waveq-dp-tiles.csv > $o/waveq-dp-tiles.txt 2>/dev/null
echo "dp tiles rc $?"; sed -n '/# summary/,$p' $o/waveq-dp-tiles.txt
timeout 30 $g/run streamk-trace 2432 1792 1024 --mode dp > $o/trace.txt 2>&1; echo "trace rc $?"
kill $smi
cd $o && tar czf csv.tgz bench-*.csv bench-*.json bench-*.err waveq-dp-tiles.csv smi.csv && tar czf misc.tgz gpu.txt sanitizer.log marks.txt trace.txt waveq-*.txt && rm -f bench-*.csv bench-*.json bench-*.err waveq-dp-tiles.csv smi.csv gpu.txt sanitizer.log marks.txt trace.txt waveq-*.txt && ls
