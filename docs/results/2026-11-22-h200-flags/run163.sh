#!/usr/bin/env bash
# Session 29, run 163, HEAD 9ef15ab: the benchmark behind docs/performance.md's Results table on
# this session's build (scripts/gpu_bench.sh, fp16 and bf16), the first since session 28's planner
# and fp32 D changes.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
for d in fp16 bf16; do
  timeout 280 bash scripts/gpu_bench.sh $g $o $d; echo "bench $d exit $?"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
