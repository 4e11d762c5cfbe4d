#!/usr/bin/env bash
# Session 56, run 301: the 3% rule out of sample on the final planner (run 300's bundle; later
# commits change comments and tests only). Random paper-like shapes on which auto's plan differs
# from dp's (rule_shapes.txt: 377 with misaligned K-major rows, 80 aligned), timed in auto, dp
# and cuBLAS, tn fp16 twice and bf16 once.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-clusters
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
for p in tn-fp16-1:fp16 tn-bf16-1:bf16 tn-fp16-2:fp16; do
  timeout 150 $g/run streamk-bench --shapes $d/rule_shapes.txt --rotate --reps 21 --inner 5 \
    --modes auto,dp,cublas --layout tn --dtype ${p#*:} --csv $o/${p%:*}.csv > $o/${p%:*}.txt 2>&1
  echo "${p%:*} exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/${p%:*}.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
