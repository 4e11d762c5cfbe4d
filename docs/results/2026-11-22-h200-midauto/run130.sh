#!/usr/bin/env bash
# Session 24, run 130: why all-tiles Stream-K over many deep 128 x 192 tiles runs up to 1.7x over
# data-parallel on the same tiles (run 125: 5888x2944x8192 794 us against 469). The lead: blocks
# that start their tiles at scattered k offsets share no operand k-slices in the L2, so every
# iteration's loads come from HBM (713 tiles x 128 iterations x 40 KiB = 3.7 GB, 0.78 ms at
# 4.8 TB/s). Nsight Compute, one launch each: DRAM bytes read, L2 hit rate and duration, for
# data-parallel and all-tiles Stream-K on both wide tiles, on 5888x2944x8192 and 4352x3072x8192.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
met=dram__bytes_read.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed
for s in 5888x2944x8192 4352x3072x8192; do
  for m in dp/128x192x64 streamk/128x192x64 dp/128x256x64 streamk/128x256x64; do
    f=$s-${m//\//-}
    timeout 120 ncu --metrics $met -k regex:StreamKGemmKernel -c 1 \
      $g/streamk-bench --shape $s --modes $m --warmup 0 --reps 1 --inner 1 > $o/$f.txt 2>&1
    echo "$s $m rc $?"; grep -E "dram__bytes_read.sum|hit_rate|gpu__time_duration|sm__throughput|dp_tiles|tiles" $o/$f.txt | head -6
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
