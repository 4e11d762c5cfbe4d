#!/usr/bin/env bash
# Session 39, run 216: ping-pong by depth, K-major rows on 128-byte lines (after runs 214-215):
# probe216.txt (4-7 and 24-48 k-iterations at 15.5 tiles a block, 24-32 at 3-4 a block),
# data-parallel on 128 x 128 tiles, STREAMK_PINGPONG=on against off, three passes, fp16 and bf16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
shapes=docs/results/2026-11-23-h200-ppplan/probe216.txt
for pass in 1 2 3; do
  for build in on off; do
    for dt in fp16 bf16; do
      STREAMK_PINGPONG=$build timeout 100 $g/run streamk-bench --shapes $shapes --dtype $dt \
        --modes dp/128x128x64 --csv $o/$build-$dt-$pass.csv > $o/$build-$dt-$pass.txt 2>&1
      echo "$build $dt $pass exit $?"
    done
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
