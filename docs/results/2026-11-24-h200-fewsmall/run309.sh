#!/usr/bin/env bash
# Session 58, run 309: the review's build (c4490bd: the two margins moved into the tiles'
# CostModel constants; streamk-plan byte-identical to run 308's build on 1714 shapes). Every GPU
# test; final_shapes.txt in auto, dp and cuBLAS, tn fp16 and bf16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-fewsmall
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem,serial \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
for t in fp16 bf16; do
  timeout 100 $g/run streamk-bench --shapes $d/final_shapes.txt --rotate --reps 21 --inner 5 \
    --modes auto,dp,cublas --layout tn --dtype $t --csv $o/tn-$t.csv > $o/tn-$t.txt 2>&1
  echo "tn-$t exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/tn-$t.txt | head -8
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
