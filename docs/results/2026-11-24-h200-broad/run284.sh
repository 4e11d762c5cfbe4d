#!/usr/bin/env bash
# Session 53, run 284: the 128 x 320 configuration (kTmaBroadTileN). Every GPU test
# (scripts/gpu_check.sh, with GemmGpu.BroadTile*); then data-parallel 128 x 320 forced against
# auto, dp and cuBLAS on the 33 grid shapes whatif.py predicts it 2% or more faster on (tn fp16
# two passes, nn fp16 and tn bf16 one each).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-broad
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
timeout 100 $g/run streamk_gpu_tests --gtest_filter='GemmGpu.BroadTile*' > $o/broad_test.txt 2>&1
echo "broad test exit $? at $SECONDS s"; tail -3 $o/broad_test.txt
fm=auto,dp,dp/128x320x64,dp/128x256x64,cublas
run() {  # name, extra flags
  local n=$1; shift
  timeout 150 $g/run streamk-bench --shapes $d/shapes.txt --rotate --modes $fm --reps 21 \
    --inner 5 --csv $o/$n.csv "$@" > $o/$n.txt 2>&1
  echo "$n exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/$n.txt
}
run tn-fp16-1 --layout tn
run nn-fp16-1 --layout nn
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
run tn-bf16-1 --layout tn --dtype bf16
run tn-fp16-2 --layout tn
cd $OUT && tar czf all.tgz r && rm -rf r && ls
