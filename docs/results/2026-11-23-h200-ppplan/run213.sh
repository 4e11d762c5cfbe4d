#!/usr/bin/env bash
# Session 39, run 213: run 212 timed STREAMK_PINGPONG=off in calls of one mode (a cooler GPU than
# the calls of five), so its ping-pong A/B is not fair. Here each call runs the same modes over
# shapes.txt (auto and every tile's data-parallel plan), alternating the launch's choice (default)
# and STREAMK_PINGPONG=off, fp16 and bf16, three passes.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
shapes=docs/results/2026-11-23-h200-ppplan/shapes.txt
modes=auto,dp/128x128x64,dp/128x192x64,dp/192x192x64,dp/128x256x64
for pass in 1 2 3; do
  for build in pingpong shared; do
    env=""; [[ $build == shared ]] && env=off
    for dt in fp16 bf16; do
      STREAMK_PINGPONG=$env timeout 120 $g/run streamk-bench --shapes $shapes --dtype $dt \
        --modes $modes --csv $o/$build-$dt-$pass.csv > $o/$build-$dt-$pass.txt 2>&1
      echo "$build $dt $pass exit $?"
    done
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
