#!/usr/bin/env bash
# Session 39, run 212: the planner prices ping-pong (CostModel::pingpong_hidden_us,
# pingpong_iter_loss). Over the shapes whose 128 x 128 data-parallel plan runs ping-pong and which
# the planner now picks it for or predicts near its pick (shapes.txt), auto against each tile's
# data-parallel plan (the old pick among them), fp16 and bf16, two passes; then the 128 x 128
# plans again with STREAMK_PINGPONG=off.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
shapes=docs/results/2026-11-23-h200-ppplan/shapes.txt
modes=auto,dp/128x128x64,dp/128x192x64,dp/192x192x64,dp/128x256x64
for pass in 1 2; do
  for dt in fp16 bf16; do
    timeout 200 $g/run streamk-bench --shapes $shapes --dtype $dt --modes $modes \
      --csv $o/tiles-$dt-$pass.csv > $o/tiles-$dt-$pass.txt 2>&1
    echo "tiles $dt $pass exit $?"
  done
done
for dt in fp16 bf16; do
  STREAMK_PINGPONG=off timeout 100 $g/run streamk-bench --shapes $shapes --dtype $dt \
    --modes dp/128x128x64 --csv $o/off-$dt.csv > $o/off-$dt.txt 2>&1
  echo "off $dt exit $?"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
