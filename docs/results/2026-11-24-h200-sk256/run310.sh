#!/usr/bin/env bash
# Session 59, run 310: head 04eb5f1's streamk-bench (no change). census_old.txt (random shapes of
# seeds 121-160 that auto streams on 128 x 256, census.py) in auto and dp, tn fp16 twice and bf16
# once.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-sk256
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem,serial \
  --format=csv > $o/gpu.txt 2>&1
for p in tn-fp16-1:fp16 tn-bf16-1:bf16 tn-fp16-2:fp16; do
  timeout 170 $g/run streamk-bench --shapes $d/census_old.txt --rotate --reps 21 --inner 5 \
    --modes auto,dp --layout tn --dtype ${p#*:} --csv $o/${p%:*}.csv > $o/${p%:*}.txt 2>&1
  echo "${p%:*} exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/${p%:*}.txt | head -8
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
