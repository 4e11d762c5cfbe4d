#!/usr/bin/env bash
# Session 39, run 214: why ping-pong loses on some shapes (run 213: K = 592, 680, 912, 2096 ran
# 0.89-0.97x; 1024-deep shapes with edge tiles gained). probe214.txt (no edge tiles, K of whole
# and partial 64-deep k-iterations), data-parallel on 128 x 128 tiles, alternating the launch's
# choice and STREAMK_PINGPONG=off, three passes, fp16: with layout tn (both operands K-major,
# rows K elements apart) and nt (both M/N-major: rows 4096 or 8192 elements apart, so a partial
# last k-iteration without K-major rows that start off 128-byte boundaries).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
shapes=docs/results/2026-11-23-h200-ppplan/probe214.txt
for pass in 1 2 3; do
  for build in pingpong shared; do
    env=""; [[ $build == shared ]] && env=off
    for layout in tn nt; do
      STREAMK_PINGPONG=$env timeout 100 $g/run streamk-bench --shapes $shapes --dtype fp16 \
        --layout $layout --modes dp/128x128x64 --csv $o/$build-$layout-$pass.csv \
        > $o/$build-$layout-$pass.txt 2>&1
      echo "$build $layout $pass exit $?"
    done
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
