#!/usr/bin/env bash
# Session 16, run 72: the final build (run 71's kernel; the planner's memory floor): every GPU
# test, the
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
timeout 240 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -8
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
for dt in fp16 bf16; do echo "$(date +%T.%N) bench $dt" >> $o/marks.txt; timeout 200 bash $g/gpu_bench.sh $g $o $dt; echo "bench $dt exit $?"; done
echo "$(date +%T.%N) end" >> $o/marks.txt
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command-2.txt 2>/dev/null
echo "issue command (again) rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command-2.txt
timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,dp/128x256x64,dp/128x128x64 --reps 31 --csv $o/waveq-dp-tiles.csv > $o/waveq-dp-tiles.txt 2>/dev/null
echo "dp tiles rc $?"; sed -n '/# summary/,$p' $o/waveq-dp-tiles.txt
for t in "2432 1792 1024 --mode dp" "28672 16 8192" "136 5968 3080"; do
  echo "=== streamk-trace $t" >> $o/trace.txt; timeout 30 $g/run streamk-trace $t >> $o/trace.txt 2>&1
done
grep -E "^===|^untraced|^host|mainloop fit" $o/trace.txt
kill $smi
cd $o && tar czf csv.tgz bench-*.csv bench-*.json bench-*.err waveq-dp-tiles.csv smi.csv && tar czf misc.tgz check check.txt gpu.txt marks.txt trace.txt waveq-*.txt && rm -rf check check.txt bench-*.csv bench-*.json bench-*.err waveq-dp-tiles.csv smi.csv gpu.txt marks.txt trace.txt waveq-*.txt && ls
