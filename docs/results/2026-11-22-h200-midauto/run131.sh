#!/usr/bin/env bash
# Session 24, run 131: does auto's Stream-K on deep waveq shapes also read more from DRAM than
# data-parallel (run 130: all-tiles Stream-K read 4-7x the DRAM bytes of data-parallel at
# K = 8192)? Nsight Compute, one launch each, auto and dp, on the deep waveq shapes auto runs as
# Stream-K: DRAM bytes read, L2 hit rate, duration.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
met=dram__bytes_read.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum
for s in 3072x1536x8192 2048x2176x8192 1792x2432x8192 5120x2560x8192 4864x3584x8192 3072x1536x4096 4864x3584x4096; do
  for m in auto dp/128x256x64; do
    f=$s-${m//\//-}
    timeout 60 ncu --metrics $met -k regex:StreamKGemmKernel -c 1 \
      $g/streamk-bench --shape $s --modes $m --warmup 0 --reps 1 --inner 1 > $o/$f.txt 2>&1
    echo "$s $m rc $? $(grep -E '^[a-z].* ok ' $o/$f.txt | head -1 | cut -c1-90)"
    grep -E "dram__bytes_read.sum|hit_rate|gpu__time_duration" $o/$f.txt | awk '{print "   ", $1, $(NF-1), $NF}'
  done
done
$g/streamk-bench --shape 3072x1536x8192 --modes auto --warmup 0 --reps 1 --inner 1 2>&1 | tail -5
cd $OUT && tar czf all.tgz r && rm -rf r && ls
