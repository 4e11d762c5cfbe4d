#!/usr/bin/env bash
# Session 43, run 245: the per-round memory floor. shapes-rounds.txt: auto (now 128 x 256 tiles
# for tokens as A, Stream-K over 132 blocks for tokens as B) against data-parallel on 128 x 128
# (auto's pick before), 128 x 256, Stream-K on 128 x 128 and cuBLAS, layouts tn and nn, fp16,
# two passes; then every GPU test.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-decode2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
for pass in 1 2; do
  for layout in tn nn; do
    timeout 120 $g/run streamk-bench --shapes $d/shapes-rounds.txt --layout $layout \
      --modes auto,dp/128x128x64,dp/128x256x64,streamk/128x128x64,cublas --reps 31 --inner 5 \
      --csv $o/rounds-$layout-$pass.csv > $o/rounds-$layout-$pass.txt 2>&1
    echo "$layout $pass exit $?"
  done
done
GPU_TEST_TIMEOUT=240 timeout 400 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check.txt | head -30
cd $OUT && tar czf all.tgz r && rm -rf r && ls
