#!/usr/bin/env bash
# Session 52, run 282: which kernels cuBLAS runs on the prefill grid's rows furthest behind it
# (behind.txt), and the counters of its kernel and of auto's beside each other (ncu, clocks left
# alone): time, grid, cluster, SM throughput, DRAM bytes read, L2 hit rate.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
M=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__cluster_dim_x
M=$M,launch__cluster_dim_y,sm__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,dram__bytes_read.sum,lts__t_sector_hit_rate.pct,sm__cycles_elapsed.avg.per_second
grep -v '^#' docs/results/2026-11-24-h200-rows5/behind.txt | while read name m n k; do
  s=${m}x${n}x${k}
  timeout 60 ncu --clock-control none --metrics $M -k 'regex:nvjet|streamk|Gemm|gemm' -c 8 \
    $g/run streamk-bench --shape $s --modes cublas,auto --reps 1 --inner 1 --warmup 0 \
    > $o/ncu-$name-$s.txt 2>&1
  echo "$name $s ncu exit $?"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
