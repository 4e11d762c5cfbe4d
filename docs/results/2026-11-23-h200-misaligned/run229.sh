#!/usr/bin/env bash
# Session 41, run 229: out of sample for a cluster-estimate correction: the 146 K-misaligned
# shapes of the paper sets with seeds 2 and 3 (session 19's misaligned-s2s3.txt), each timed
# under auto as it stands and on the cluster tile's dp, Stream-K and split-K plans, fp16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
timeout 300 $g/run streamk-bench \
  --shapes docs/results/2026-11-22-h200-loadbound/misaligned-s2s3.txt --dtype fp16 \
  --modes auto,dp/256x256x64,streamk/256x256x64,splitk/256x256x64,cublas --warmup 3 --reps 15 \
  --inner 5 --csv $o/s2s3.csv > $o/s2s3.txt 2> $o/s2s3.err
echo "s2s3 exit $?"
cd $OUT && tar czf all.tgz r && rm -rf r && ls
