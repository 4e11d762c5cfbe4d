#!/usr/bin/env bash
# Session 43, run 237: (1) large shallow shapes (shapes.txt, 4-7 k-iterations) on every tile's
# data-parallel plan, the 128 x 128 one with ping-pong forced on and off, against auto and cuBLAS,
# two passes, fp16; (2) the full fp16 benchmark with the planner's predictions recorded
# (scripts/gpu_bench.sh); (3) streamk-demo.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
shapes=docs/results/2026-11-23-h200-shallow/shapes.txt
for pass in 1 2; do
  for pp in on off; do
    modes=dp/128x128x64
    [[ $pp == on ]] && modes=auto,dp/128x128x64,dp/128x256x64,dp/128x192x64,dp/192x192x64,cublas
    STREAMK_PINGPONG=$pp timeout 120 $g/run streamk-bench --shapes $shapes --modes $modes \
      --reps 31 --inner 5 --csv $o/shallow-$pp-$pass.csv > $o/shallow-$pp-$pass.txt 2>&1
    echo "shallow $pp $pass exit $?"
  done
done
timeout 60 $g/run streamk-demo 4096 4096 4104 > $o/demo.log 2>&1; echo "demo exit $?"
timeout 300 bash scripts/gpu_bench.sh $g $o fp16; echo "bench fp16 exit $?"
cd $OUT && tar czf all.tgz r && rm -rf r && ls
