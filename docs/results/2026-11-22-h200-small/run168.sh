#!/usr/bin/env bash
# Session 31, run 168: the 64 x 128 tile (forced) timed as the Results are (back-to-back launches,
# fp16), to fit its constants and replay auto: the small shapes, the decode rows and the few-tile
# deep-K shapes with data-parallel, split-K and all-tiles Stream-K on it; the paper and llm sets
# with data-parallel and two-way split-K on it, beside auto and cuBLAS.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-22-h200-separate
s=docs/results/2026-11-22-h200-small
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
t=64x128x64
m=auto,dp,dp/$t,splitk:2/$t,splitk:3/$t,splitk:4/$t,splitk/$t,streamk/$t,cublas
for f in $s/small-shapes.txt $d/decode-shapes.txt $d/separate-shapes.txt; do
  n=$(basename $f .txt)
  timeout 100 $g/run streamk-bench --shapes $f --dtype fp16 --modes $m --reps 15 \
    --csv $o/$n.csv > $o/$n.txt 2> $o/$n.err
  echo "$n exit $? errors $(grep -c ERROR $o/$n.txt)"
done
for set in paper llm waveq; do
  timeout 200 $g/run streamk-bench --set $set --dtype fp16 --modes auto,dp,dp/$t,splitk:2/$t,cublas \
    --reps 9 --csv $o/$set.csv > $o/$set.txt 2> $o/$set.err
  echo "$set exit $? errors $(grep -c ERROR $o/$set.txt)"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
