#!/usr/bin/env bash
# Session 44, run 247: narrow wgmmas (NarrowWidthOf). The decode rows and edge shapes of
# shapes.txt, auto, data-parallel on 128 x 128 and 64 x 128, and cuBLAS, narrow against
# STREAMK_NARROW=off in alternating calls, two passes, fp16, layouts tn and nn; then every GPU test.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-narrow
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
for pass in 1 2; do
  for narrow in on off; do
    for layout in tn nn; do
      STREAMK_NARROW=$narrow timeout 100 $g/run streamk-bench --shapes $d/shapes.txt \
        --layout $layout --modes auto,dp/128x128x64,dp/64x128x64,cublas --reps 31 --inner 5 \
        --csv $o/narrow-$narrow-$layout-$pass.csv > $o/narrow-$narrow-$layout-$pass.txt 2>&1
      echo "$narrow $layout $pass exit $?"
    done
  done
done
GPU_TEST_TIMEOUT=240 timeout 420 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check.txt | head -30
cd $OUT && tar czf all.tgz r && rm -rf r && ls
