#!/usr/bin/env bash
# Session 27, run 147: this build's benchmark (scripts/gpu_bench.sh, fp16 and bf16).
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
for d in fp16 bf16; do
  timeout 270 bash scripts/gpu_bench.sh $g $o $d; echo "bench $d exit $?"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
