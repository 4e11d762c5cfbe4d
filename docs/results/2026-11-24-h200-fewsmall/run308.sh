#!/usr/bin/env bash
# Session 58, run 308: the new build (kMinSmallTileSplitGain, kMinSmallTileSplitGainOnLines,
# kMinAltTileStreamKGain in DataParallelOverSplitPick) against head 73e7bdb's streamk-bench
# (gpu-old). Every GPU test; final_shapes.txt (fresh seeds 111-118, few_census.py: the 209 shapes
# whose pick moves) on the old build in auto and dp (the old pick and the new), and on the new
# build in auto, dp and cuBLAS; tn fp16 and bf16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu gpu-old; tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/old.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-fewsmall
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem,serial \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
for p in old-fp16:fp16:gpu-old:auto,dp old-bf16:bf16:gpu-old:auto,dp \
         new-fp16:fp16:gpu:auto,dp,cublas new-bf16:bf16:gpu:auto,dp,cublas; do
  IFS=: read -r n t b m <<< "$p"
  timeout 100 $(pwd)/$b/run streamk-bench --shapes $d/final_shapes.txt --rotate --reps 21 \
    --inner 5 --modes $m --layout tn --dtype $t --csv $o/$n.csv > $o/$n.txt 2>&1
  echo "$n exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/$n.txt | head -8
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
