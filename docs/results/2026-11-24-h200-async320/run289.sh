#!/usr/bin/env bash
# Session 54, run 289: the 128 x 320 tile's TMA store in two rounds (16-bit D without C) against
# its synchronous epilogue of session 53 (STREAMK_BROAD_TMA_STORE=off) in the same call: the
# broad tile's GPU tests, then data-parallel 128 x 320 forced, auto and cuBLAS on shapes.txt,
# the two alternating (tn fp16 twice each, tn bf16 once each), then every GPU test.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-async320
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
timeout 100 $g/run streamk_gpu_tests --gtest_filter='GemmGpu.BroadTile*:GemmGpu.EpilogueWrites*' \
  > $o/broad_test.txt 2>&1
echo "broad test exit $? at $SECONDS s"; tail -3 $o/broad_test.txt
run() {  # STREAMK_BROAD_TMA_STORE value (on: the default), name, extra flags
  local e=$1 n=$2; shift 2
  STREAMK_BROAD_TMA_STORE=$e timeout 100 $g/run streamk-bench --shapes $d/shapes.txt --rotate \
    --modes auto,dp/128x320x64,cublas --reps 21 --inner 5 --csv $o/$n.csv "$@" > $o/$n.txt 2>&1
  echo "$n exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/$n.txt
}
run off old-tn-fp16-1
run on new-tn-fp16-1
run on new-tn-fp16-2
run off old-tn-fp16-2
run off old-tn-bf16-1 --dtype bf16
run on new-tn-bf16-1 --dtype bf16
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
