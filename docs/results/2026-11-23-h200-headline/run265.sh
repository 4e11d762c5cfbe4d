#!/usr/bin/env bash
# Session 49, run 265: how often Stream-K tiles read B's panels where three to six tiles along m
# share them (rows3.txt, cold, layout tn): auto, every tile Stream-K and the partial wave's tiles
# Stream-K on 128 x 256, data-parallel (dp and on three tiles), and cuBLAS; fp16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-headline
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
fm=auto,streamk/128x256x64,streamk:132/128x256x64,streamk-tail/128x256x64,dp,dp/128x256x64
fm=$fm,dp/128x192x64,dp/128x128x64,cublas
timeout 300 $g/run streamk-bench --shapes $d/rows3.txt --rotate --modes $fm --reps 21 --inner 5 \
  --csv $o/rows3-tn.csv > $o/rows3-tn.txt 2>&1
echo "rows3 exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/rows3-tn.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
