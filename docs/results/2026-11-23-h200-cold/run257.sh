#!/usr/bin/env bash
# Session 48, run 257: the planner with the memory's floor at 4.1 TB/s, the narrow wgmma width
# priced and Stream-K's exchange above the floor. Every GPU test (scripts/gpu_check.sh); auto and
# cuBLAS on run 256's decode sweep (both sides, layouts tn and nn) and on run 255's shapes, cold
# (--rotate); fp16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-cold m=docs/results/2026-11-23-h200-decode2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
for f in $d/sweep-a.txt $d/sweep-b.txt $m/shapes-moved.txt $d/shapes-floor.txt; do
  s=$(basename $f .txt)
  for layout in tn nn; do
    timeout 100 $g/run streamk-bench --shapes $f --layout $layout --rotate \
      --modes auto,cublas --reps 21 --inner 5 \
      --csv $o/$s-$layout.csv > $o/$s-$layout.txt 2>&1
    echo "$s $layout exit $? at $SECONDS s"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
