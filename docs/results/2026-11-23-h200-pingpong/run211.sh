#!/usr/bin/env bash
# Session 38, run 211: after the review commit (Finish and ping-pong share one TMA-store path,
# FinishByTma; ConsumeTile issues each half's wgmmas as a group again, as in run 208, since run
# 209's interleaving measured the same). As run 210: the launch takes it where blocks compute four
# tiles or more of at least 8 k-iterations (kernels::PingPongOf, from runs 208-209). Every GPU test
# (scripts/gpu_check.sh: the TMA, mma.sync and cp.async mainloops; GemmGpu.PingPong* among them),
# then shapes.txt in fp16 and bf16, auto, dp/128x128x64 and cuBLAS, three passes, each
# alternating the launch's choice (default) and STREAMK_PINGPONG=off.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 420 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
shapes=docs/results/2026-11-23-h200-pingpong/shapes.txt
for pass in 1 2 3; do
  for build in pingpong shared; do
    env=""; [[ $build == shared ]] && env=off
    for dt in fp16 bf16; do
      STREAMK_PINGPONG=$env timeout 60 $g/run streamk-bench --shapes $shapes --dtype $dt \
        --modes auto,dp/128x128x64,cublas --csv $o/$build-$dt-$pass.csv \
        > $o/$build-$dt-$pass.txt 2>&1
      echo "$build $dt $pass exit $?"
    done
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
