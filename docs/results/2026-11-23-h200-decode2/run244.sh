#!/usr/bin/env bash
# Session 43, run 244: shapes-wide.txt, auto against data-parallel on 128 x 128 and 128 x 256
# tiles and cuBLAS, layouts tn and nn, fp16, two passes.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-decode2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
for pass in 1 2; do
  for layout in tn nn; do
    timeout 120 $g/run streamk-bench --shapes $d/shapes-wide.txt --layout $layout \
      --modes auto,dp/128x128x64,dp/128x256x64,dp/64x128x64,cublas --reps 31 --inner 5 \
      --csv $o/wide-$layout-$pass.csv > $o/wide-$layout-$pass.txt 2>&1
    echo "$layout $pass exit $?"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
