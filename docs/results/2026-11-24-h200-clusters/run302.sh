#!/usr/bin/env bash
# Session 56, run 302: a lead checked out of sample on the final planner (run 300's bundle; later
# commits change comments and tests only). small_shapes.txt (small_scan.py, seeds 45-50): 108
# misaligned shapes auto splits or streams under 1.25x its predicted gain over dp 64 x 128; auto, dp
# and cuBLAS, tn fp16 twice and bf16 once.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-clusters
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
for p in tn-fp16-1:fp16 tn-bf16-1:bf16 tn-fp16-2:fp16; do
  timeout 150 $g/run streamk-bench --shapes $d/small_shapes.txt --rotate --reps 21 --inner 5 \
    --modes auto,dp,cublas --layout tn --dtype ${p#*:} --csv $o/${p%:*}.csv > $o/${p%:*}.txt 2>&1
  echo "${p%:*} exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/${p%:*}.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
