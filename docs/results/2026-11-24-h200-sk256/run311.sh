#!/usr/bin/env bash
# Session 59, run 311: the new build (CostModel::every_tile_streamk_gain and
# one_round_tail_streamk_gain on 128 x 256 in DataParallelOverSplitPick) against head 04eb5f1's
# streamk-bench (gpu-old). Every GPU test; moved_shapes.txt (fresh seeds 161-200, census.py: the
# 141 shapes whose pick moves) on the old build in auto and dp (the old pick and the new) twice in
# fp16 and once in bf16, and on the new build in auto, dp and cuBLAS, fp16 and bf16; tn.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu gpu-old; tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/old.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-sk256
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem,serial \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
for p in tn-fp16-1:fp16:gpu-old:auto,dp tn-bf16-1:bf16:gpu-old:auto,dp \
         tn-fp16-2:fp16:gpu-old:auto,dp new-fp16:fp16:gpu:auto,dp,cublas \
         new-bf16:bf16:gpu:auto,dp,cublas; do
  IFS=: read -r n t b m <<< "$p"
  timeout 100 $(pwd)/$b/run streamk-bench --shapes $d/moved_shapes.txt --rotate --reps 21 \
    --inner 5 --modes $m --layout tn --dtype $t --csv $o/$n.csv > $o/$n.txt 2>&1
  echo "$n exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/$n.txt | head -8
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
