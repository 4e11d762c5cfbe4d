#!/usr/bin/env bash
# Session 17, run 75: which kernel cuBLAS runs on K-misaligned rows (K an odd multiple of 8), and
# what ncu's counters say about L2 traffic for ours and cuBLAS's, aligned and misaligned.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
which ncu; ncu --version | tail -1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw --format=csv
M="gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_op_read.sum,lts__t_requests_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__block_size,launch__shared_mem_per_block_dynamic"
for s in 4096x4096x4104 4096x4096x4096 4096x4096x4112; do
  timeout 120 ncu --clock-control none --metrics $M -c 12 $g/run streamk-bench --shape $s --modes dp,cublas --reps 1 --inner 1 --warmup 0 > $o/ncu-$s.txt 2>&1
  echo "$s rc $?"
  grep -E "^  [a-zA-Z_].*\(|gpu__time|dram__bytes|lts__t_|launch__grid|sm__thr" $o/ncu-$s.txt | head -80
done
CUBLASLT_LOG_LEVEL=5 timeout 60 $g/run streamk-bench --shape 4096x4096x4104 --modes cublas --reps 1 --inner 1 --warmup 0 > $o/ltlog.txt 2>&1
grep -i -m5 "algo\|kernel" $o/ltlog.txt
ls $o
