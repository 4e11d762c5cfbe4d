#!/usr/bin/env bash
# Session 18, run 88: auto may run K-misaligned shapes on the cluster configuration (256x256x64
# on 2-SM clusters that read B once). Every GPU test, the issue's waveq command, the full
# benchmark (scripts/gpu_bench.sh) in fp16 and bf16, the K-misaligned pairs (auto, dp, the
# cluster tile, cuBLAS), with the SM clock and power logged every 50 ms. Run from the directory
# holding gpu/.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
q=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active
nvidia-smi --query-gpu=$q --format=csv -lms 50 > $o/smi.csv 2>&1 &
smi=$!
timeout 240 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -9
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
for dt in fp16 bf16; do timeout 200 bash $g/gpu_bench.sh $g $o $dt; echo "bench $dt exit $?"; done
timeout 90 $g/run streamk-bench --shapes $g/kmis-pairs.txt --modes auto,dp,dp/256x256x64,cublas --reps 31 --csv $o/pairs-auto.csv > $o/pairs-auto.txt 2>/dev/null
echo "pairs rc $?"; grep -v "^#" $o/pairs-auto.txt | head -16
kill $smi
cd $o && tar czf csv.tgz bench-*.csv bench-*.json bench-*.err pairs-auto.csv smi.csv && tar czf misc.tgz check check.txt gpu.txt waveq-issue-command.txt pairs-auto.txt && rm -rf check check.txt bench-*.csv bench-*.json bench-*.err pairs-auto.csv smi.csv gpu.txt && ls
