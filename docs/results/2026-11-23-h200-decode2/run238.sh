#!/usr/bin/env bash
# Session 43, run 238: decode rows against cuBLAS (shapes.txt): every plan that might stream the
# weights faster, fp16, two passes; then ncu on 70b.up.m16 and 7b.up.m16: cuBLAS's kernel, and
# the DRAM throughput of cuBLAS's and auto's.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-decode2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
modes=auto,dp/128x128x64,dp/64x128x64,dp/128x256x64,splitk:2/128x128x64,splitk:2/64x128x64
modes=$modes,streamk/128x128x64,streamk/64x128x64,streamk:264/64x128x64,cublas
for pass in 1 2; do
  timeout 150 $g/run streamk-bench --shapes $d/shapes.txt --dtype fp16 --modes $modes \
    --reps 31 --inner 5 --csv $o/decode-$pass.csv > $o/decode-$pass.txt 2> $o/decode-$pass.err
  echo "pass $pass exit $?"
done
M=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__cluster_dim_x
M=$M,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum
M=$M,lts__t_sector_hit_rate.pct,launch__occupancy_limit_shared_mem,sm__warps_active.avg.pct_of_peak_sustained_active
for s in 16x28672x8192 16x11008x4096; do
  for m in cublas auto; do
    timeout 90 ncu --clock-control none --metrics $M -c 6 $g/run streamk-bench --shape $s \
      --modes $m --reps 1 --inner 1 --warmup 0 > $o/ncu-$s-$m.txt 2>&1
    echo "$s $m ncu exit $?"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
