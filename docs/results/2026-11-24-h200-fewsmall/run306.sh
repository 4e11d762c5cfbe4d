#!/usr/bin/env bash
# Session 58, run 306: head 73e7bdb's streamk-bench (no change). few_shapes.txt (aligned random
# shapes of seeds 91-98 whose auto picks split or stream, few_census.py; run 301's nine aligned
# shapes 3% or more behind dp) in auto and dp, tn fp16 twice and bf16 once; mid_shapes.txt (the
# Stream-K picks on 128 x 128 among them) also data-parallel on 128 x 192 forced.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-fewsmall
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
for p in tn-fp16-1:fp16 tn-bf16-1:bf16 tn-fp16-2:fp16; do
  timeout 150 $g/run streamk-bench --shapes $d/few_shapes.txt --rotate --reps 21 --inner 5 \
    --modes auto,dp --layout tn --dtype ${p#*:} --csv $o/${p%:*}.csv > $o/${p%:*}.txt 2>&1
  echo "${p%:*} exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/${p%:*}.txt | head -8
done
for p in mid-fp16:fp16 mid-bf16:bf16; do
  timeout 60 $g/run streamk-bench --shapes $d/mid_shapes.txt --rotate --reps 21 --inner 5 \
    --modes auto,dp,dp/128x192x64 --layout tn --dtype ${p#*:} --csv $o/${p%:*}.csv \
    > $o/${p%:*}.txt 2>&1
  echo "${p%:*} exit $? at $SECONDS s"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
