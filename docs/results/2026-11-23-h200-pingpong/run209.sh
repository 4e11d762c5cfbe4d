#!/usr/bin/env bash
# Session 38, run 209: as run 208, with each 16-deep step's two wgmmas (the tile's two 64-row
# halves) back to back (run 208 issued each half's four in a row, and ran deep shapes 5-16%
# slower). Its GPU test; traces of 5120 x 2560 x 1024, 2376 x 2320 x 1008 and 592 x 5768 x 3344
# on data-parallel 128 x 128 tiles with and without ping-pong; shapes.txt in fp16, auto,
# dp/128x128x64 and cuBLAS, three passes, each alternating ping-pong (default) and
# STREAMK_PINGPONG=off.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
timeout 200 $g/run streamk_gpu_tests --gtest_filter='GemmGpu.PingPong*' > $o/pingpong-test.txt 2>&1
echo "pingpong test exit $?"; grep -E "^\[  |Failure|FATAL" $o/pingpong-test.txt | head -20
for env in "" off; do
  for sh in "5120 2560 1024" "2376 2320 1008" "592 5768 3344"; do
    echo "=== STREAMK_PINGPONG=$env $sh"
    STREAMK_PINGPONG=$env timeout 60 $g/run streamk-trace $sh --mode dp --tile 128x128x64 2>&1 |
      grep -E "checked|per block|per piece|data-parallel|pieces"
  done
done > $o/traces.txt 2>&1
cat $o/traces.txt | head -40
shapes=docs/results/2026-11-23-h200-pingpong/shapes.txt
for pass in 1 2 3; do
  for build in pingpong shared; do
    env=""; [[ $build == shared ]] && env=off
    STREAMK_PINGPONG=$env timeout 110 $g/run streamk-bench --shapes $shapes --dtype fp16 \
      --modes auto,dp/128x128x64,cublas --csv $o/$build-$pass.csv > $o/$build-$pass.txt 2>&1
    echo "$build $pass exit $?"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
