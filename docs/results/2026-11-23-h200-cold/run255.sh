#!/usr/bin/env bash
# Session 48, run 255: decode rows with cold caches. Every decode measurement before this ran with
# the weights left in the L2 between launches (no --rotate); a model serving tokens reads each
# layer's weights after every other layer's. (1) run 242's 36 decode rows (tokens as the kernel's
# A), data-parallel on 128 x 128 and on 64 x 128, auto and cuBLAS, layouts tn and nn, warm and
# cold (--rotate); (2) the rows session 47's floor replay moves to plans never timed
# (shapes-floor.txt), those plans and the ones auto picks now, warm and cold; fp16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-cold m=docs/results/2026-11-23-h200-decode2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
fm=auto,dp/128x128x64,dp/128x256x64,dp/64x128x64,streamk/128x128x64,streamk/128x256x64
fm=$fm,splitk:2/128x128x64,cublas
for t in cold warm; do
  r=; [ $t = cold ] && r=--rotate
  for layout in tn nn; do
    [ $SECONDS -gt 420 ] && { echo "out of time before $layout $t"; break 2; }
    timeout 120 $g/run streamk-bench --shapes $m/shapes-moved.txt --layout $layout $r \
      --modes auto,dp/128x128x64,dp/64x128x64,cublas --reps 21 --inner 5 \
      --csv $o/moved-$layout-$t.csv > $o/moved-$layout-$t.txt 2>&1
    echo "moved $layout $t exit $? at $SECONDS s"
    timeout 150 $g/run streamk-bench --shapes $d/shapes-floor.txt --layout $layout $r \
      --modes $fm --reps 21 --inner 5 \
      --csv $o/floor-$layout-$t.csv > $o/floor-$layout-$t.txt 2>&1
    echo "floor $layout $t exit $? at $SECONDS s"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
