#!/usr/bin/env bash
# Session 57, run 305: the review's build (7924f2a: the rule moved into MakePlan, plans and text
# byte-identical to run 304's on 1509 shapes). Every GPU test; run 304's moved shapes
# (final_shapes.txt) in auto, dp and cuBLAS, tn fp16 and bf16. To keep the tree under the device's
# 64 MiB, the 2026-11-21 and 2026-11-22 results were taken out of the index (and excluded) for the
# call only, then restored; the command needs none of them.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-band
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
for p in tn-fp16:fp16 tn-bf16:bf16; do
  timeout 100 $g/run streamk-bench --shapes $d/final_shapes.txt --rotate --reps 21 --inner 5 \
    --modes auto,dp,cublas --layout tn --dtype ${p#*:} --csv $o/${p%:*}.csv > $o/${p%:*}.txt 2>&1
  echo "${p%:*} exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/${p%:*}.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
