#!/usr/bin/env bash
# Session 56, run 298: the misaligned shapes auto runs on 2-SM clusters (build 2e1ca87). Random
# paper-like shapes (cluster_scan.py seeds 21 and 22, 3000 each) whose auto pick is the cluster
# configuration, timed in auto (clusters), dp (data-parallel's pick), the clusters' data-parallel
# plan and 128 x 256 data-parallel (the same work per SM without the cluster), and cuBLAS; tn fp16,
# three passes.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-clusters
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
cat $d/shapes21.txt $d/shapes22.txt > /tmp/shapes.txt
for p in 1 2 3; do
  timeout 170 $g/run streamk-bench --shapes /tmp/shapes.txt --rotate --reps 21 --inner 5 \
    --modes auto,dp,dp/256x256x64,dp/128x256x64,cublas --layout tn \
    --csv $o/tn-fp16-$p.csv > $o/tn-fp16-$p.txt 2>&1
  echo "pass $p exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/tn-fp16-$p.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
