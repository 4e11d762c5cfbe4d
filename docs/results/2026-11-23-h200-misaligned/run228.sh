#!/usr/bin/env bash
# Session 41, run 228: an experimental build whose cluster configuration is the 128 x 128 kernel
# on 2-SM clusters sharing B (256 x 128 tiles per cluster; -DSTREAMK_CLUSTER_TILE_N=128, bundle
# gpux) against the current build (bundle gpu), in one call, over the paper set's 132 shapes
# whose K is not a multiple of 64 (paper-misaligned.txt), fp16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu gpux; tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/gpux.tar.xz
d=docs/results/2026-11-23-h200-misaligned
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
g=$(pwd)/gpu; x=$(pwd)/gpux
LD_LIBRARY_PATH=$g/lib timeout 200 $g/run streamk-bench --shapes $d/paper-misaligned.txt \
  --dtype fp16 --modes auto,dp/128x128x64,dp/256x256x64,streamk/256x256x64,cublas --warmup 3 \
  --reps 15 --inner 5 --csv $o/main.csv > $o/main.txt 2> $o/main.err
echo "main exit $?"
LD_LIBRARY_PATH=$x/lib timeout 200 $x/run streamk-bench --shapes $d/paper-misaligned.txt \
  --dtype fp16 --modes auto,dp/256x128x64,splitk/256x128x64,streamk/256x128x64 --warmup 3 \
  --reps 15 --inner 5 --csv $o/x.csv > $o/x.txt 2> $o/x.err
echo "x exit $?"
cd $OUT && tar czf all.tgz r && rm -rf r && ls
