#!/usr/bin/env bash
# Session 50, run 269: the final build after the tidy commit (one prediction per Stream-K block
# count; no behaviour change). Every GPU test (scripts/gpu_check.sh); run 267's rows again, tn,
# cold, auto against `dp` and cuBLAS, fp16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-chain
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
timeout 150 $g/run streamk-bench --shapes $d/rows.txt --rotate --modes auto,dp,cublas \
  --reps 21 --inner 5 --csv $o/rows-tn.csv > $o/rows-tn.txt 2>&1
echo "rows tn exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/rows-tn.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
