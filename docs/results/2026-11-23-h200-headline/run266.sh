#!/usr/bin/env bash
# Session 49, run 266: the final build (Stream-K tiles re-read shared panels up to once per
# tile, by the tiles a block takes). Every GPU test (scripts/gpu_check.sh); run 265's rows again,
# cold, tn: auto against the plans it picked before and the alternatives; fp16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-headline
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
fm=auto,streamk:132/128x256x64,streamk-tail/128x256x64,streamk-tail/128x256x64@separate,dp
fm=$fm,dp/128x256x64,dp/128x192x64,dp/128x128x64,cublas
timeout 200 $g/run streamk-bench --shapes $d/rows3.txt --rotate --modes $fm --reps 21 --inner 5 \
  --csv $o/rows3-tn.csv > $o/rows3-tn.txt 2>&1
echo "rows3 exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/rows3-tn.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
