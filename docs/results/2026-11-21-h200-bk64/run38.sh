#!/usr/bin/env bash
# Session 11, run 38: the final code, the full bf16 benchmark (scripts/gpu_bench.sh), and the
# issue's waveq command again.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
timeout 380 bash $g/gpu_bench.sh $g $o bf16; echo "bench exit $?"
timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
cd $o && tar czf csv.tgz bench-bf16.csv bench-bf16.json bench-bf16.err && rm -f bench-bf16.csv bench-bf16.json bench-bf16.err
