#!/usr/bin/env bash
# Session 41, run 227: the paper set's worst misaligned shapes against cuBLAS (worst.txt), each
# timed on every tile configuration's dp, splitk and streamk plans, the rows as they are (pass 1)
# and repacked (pass 2), fp16; and which kernels cuBLAS runs on eight of them (ncu).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-misaligned
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
tiles="128x256x64 128x128x64 128x192x64 192x192x64 64x128x64 256x256x64"
modes=auto,dp,splitk,streamk,cublas
for t in $tiles; do modes="$modes,dp/$t,splitk/$t,streamk/$t"; done
timeout 250 $g/run streamk-bench --shapes $d/worst.txt --dtype fp16 --modes $modes --warmup 3 \
  --reps 15 --inner 5 --csv $o/as-is.csv > $o/as-is.txt 2> $o/as-is.err
echo "as-is exit $?"
rmodes=dp,splitk,streamk
for t in $tiles; do rmodes="$rmodes,dp/$t,splitk/$t,streamk/$t"; done
timeout 200 $g/run streamk-bench --shapes $d/worst.txt --dtype fp16 --modes $rmodes --repack on \
  --warmup 3 --reps 15 --inner 5 --csv $o/repacked.csv > $o/repacked.txt 2> $o/repacked.err
echo "repacked exit $?"
M=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__cluster_dim_x,launch__cluster_dim_y
for s in 5968x136x3080 5312x776x1864 960x5584x1816 3632x2608x680 1528x1376x2232 1000x2648x3288 \
         4144x1488x5208 240x936x1672; do
  timeout 60 ncu --clock-control none --metrics $M -c 6 $g/run streamk-bench --shape $s \
    --modes cublas --reps 1 --inner 1 --warmup 0 > $o/ncu-$s.txt 2>&1
  echo "$s ncu exit $?"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
