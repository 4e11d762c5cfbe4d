#!/usr/bin/env bash
# Session 43, run 241: decode rows with the tokens as the kernel's A (shapes-a.txt): auto, every
# tile's data-parallel plan that fits a decode row, split-K on the 64 x 128 tile, and cuBLAS,
# layouts tn and nn, fp16, three passes.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-decode2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
modes=auto,dp/128x128x64,dp/64x128x64,dp/128x256x64,streamk/64x128x64,cublas
for pass in 1 2 3; do
  for layout in tn nn; do
    timeout 120 $g/run streamk-bench --shapes $d/shapes-a.txt --layout $layout --modes $modes \
      --reps 31 --inner 5 --csv $o/a-$layout-$pass.csv > $o/a-$layout-$pass.txt 2>&1
    echo "$layout $pass exit $?"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
