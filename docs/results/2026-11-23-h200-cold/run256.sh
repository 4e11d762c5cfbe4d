#!/usr/bin/env bash
# Session 48, run 256: a sweep of decode rows with cold caches (--rotate): weights 4096-28672,
# 1-64 tokens, 4096-14336 deep, the tokens as the kernel's A (sweep-a.txt) and as its B
# (sweep-b.txt), layouts tn and nn; auto, data-parallel on each tile but 192 x 192, Stream-K over
# 132 blocks on 128 x 128 and 64 x 128, and cuBLAS; fp16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-cold
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
fm=auto,dp/128x128x64,dp/128x256x64,dp/128x192x64,dp/64x128x64,streamk:132/128x128x64
fm=$fm,streamk:132/64x128x64,cublas
for side in a b; do
  for layout in tn nn; do
    [ $SECONDS -gt 480 ] && { echo "out of time before $side $layout"; break 2; }
    timeout 150 $g/run streamk-bench --shapes $d/sweep-$side.txt --layout $layout --rotate \
      --modes $fm --reps 21 --inner 5 \
      --csv $o/sweep-$side-$layout.csv > $o/sweep-$side-$layout.txt 2>&1
    echo "sweep $side $layout exit $? at $SECONDS s"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
