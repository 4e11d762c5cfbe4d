#!/usr/bin/env bash
# Session 40, run 221: every tile's data-parallel plan, auto and cuBLAS over grid.txt (ping-pong
# 128 x 128 against the wider tiles at 2-95 tiles a block and 8-24 k-iterations), fp16 and bf16,
# two passes, for the cross-tile refit.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
shapes=docs/results/2026-11-23-h200-crosstile/grid.txt
modes=auto,dp/128x128x64,dp/128x192x64,dp/192x192x64,dp/128x256x64,cublas
for pass in 1 2; do
  for dt in fp16 bf16; do
    timeout 140 $g/run streamk-bench --shapes $shapes --dtype $dt --modes $modes \
      --csv $o/grid-$dt-$pass.csv > $o/grid-$dt-$pass.txt 2>&1
    echo "$dt $pass exit $? wrong $(grep -c -E 'ERROR|WRONG' $o/grid-$dt-$pass.txt)"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
