#!/usr/bin/env bash
# Session 49, run 259: the third tile on a 2% margin where every tile's rows hold all of m. Every
# GPU test (scripts/gpu_check.sh); then run 256's tokens-as-A sweep and onerow-extra.txt, cold
# (--rotate), layouts tn and nn: auto against the plans it chose before (data-parallel 128 x 256,
# Stream-K over 132 blocks on 128 x 128) and data-parallel 128 x 192, and cuBLAS; fp16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-headline c=docs/results/2026-11-23-h200-cold
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
fm=auto,dp/128x192x64,dp/128x256x64,dp/128x128x64,streamk:132/128x128x64,cublas
for f in $c/sweep-a.txt $d/onerow-extra.txt; do
  s=$(basename $f .txt)
  for layout in tn nn; do
    timeout 110 $g/run streamk-bench --shapes $f --layout $layout --rotate --modes $fm \
      --reps 21 --inner 5 --csv $o/$s-$layout.csv > $o/$s-$layout.txt 2>&1
    echo "$s $layout exit $? at $SECONDS s"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
