#!/usr/bin/env bash
# Session 38, run 207: ping-pong (kernels::PingPongOf): data-parallel plans of 128 x 128 tiles
# whose blocks compute several tiles run a configuration whose two compute warp groups take the
# block's tiles in turn, each one's epilogue under the other's mainloop. First its GPU test; then
# shapes.txt in fp16, auto, dp/128x128x64 and cuBLAS, three passes, each pass alternating the new
# build with ping-pong (default), the new build without (STREAMK_PINGPONG=off) and b335276's
# streamk-bench (bundled as streamk-bench-before).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
timeout 200 $g/run streamk_gpu_tests --gtest_filter='GemmGpu.PingPong*' > $o/pingpong-test.txt 2>&1
echo "pingpong test exit $?"; grep -E "^\[  |Failure|FATAL" $o/pingpong-test.txt | head -20
shapes=docs/results/2026-11-23-h200-pingpong/shapes.txt
for pass in 1 2 3; do
  for build in pingpong shared before; do
    sfx=""; [[ $build == before ]] && sfx="-before"
    env=""; [[ $build == shared ]] && env=off
    STREAMK_PINGPONG=$env timeout 110 $g/run streamk-bench$sfx --shapes $shapes --dtype fp16 \
      --modes auto,dp/128x128x64,cublas --csv $o/$build-$pass.csv > $o/$build-$pass.txt 2>&1
    echo "$build $pass exit $?"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
