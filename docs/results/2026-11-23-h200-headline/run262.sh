#!/usr/bin/env bash
# Session 49, run 262: rows of 128-512 tokens (rows.txt), cold (--rotate), layouts tn and nn: auto
# against data-parallel on the 128 x 128, 128 x 192 and 128 x 256 tiles, Stream-K over 132 blocks
# on 128 x 128, and cuBLAS; fp16. Where the third tile's 8% margin and N-major weights stand
# past one row of tiles.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-headline
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
fm=auto,dp/128x128x64,dp/128x192x64,dp/128x256x64,streamk:132/128x128x64,cublas
for layout in tn nn; do
  timeout 250 $g/run streamk-bench --shapes $d/rows.txt --layout $layout --rotate --modes $fm \
    --reps 21 --inner 5 --csv $o/rows-$layout.csv > $o/rows-$layout.txt 2>&1
  echo "rows $layout exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/rows-$layout.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
