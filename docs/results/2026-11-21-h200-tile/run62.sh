#!/usr/bin/env bash
# Session 15, run 62: the 128 x 128 kernel's constants refitted for the data-parallel tile choice
# (iter_busy_us 0.24, misaligned_busy_load 1.3). Every GPU test, the issue's waveq command twice,
# the full benchmark (scripts/gpu_bench.sh) in fp16 and bf16, and the waveq set against
# data-parallel on each tile. Run from the directory holding gpu/ (the bundle).
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
timeout 200 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -8
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
for dt in fp16 bf16; do timeout 150 bash $g/gpu_bench.sh $g $o $dt; echo "bench $dt exit $?"; done
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command-2.txt 2>/dev/null
echo "issue command (again) rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command-2.txt
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,dp/128x256x64,dp/128x128x64 --csv $o/waveq-dp-tiles.csv > $o/waveq-dp-tiles.txt 2>/dev/null
echo "dp tiles rc $?"; sed -n '/# summary/,$p' $o/waveq-dp-tiles.txt
cd $o && tar czf csv.tgz bench-*.csv bench-*.json bench-*.err waveq-dp-tiles.csv && rm -f bench-*.csv bench-*.json bench-*.err waveq-dp-tiles.csv && tar czf check.tgz check gpu.txt check.txt && rm -rf check gpu.txt check.txt
