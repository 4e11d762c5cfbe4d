#!/usr/bin/env bash
# Session 55, run 291: every GPU test on this session's first build (Epilogue::kTileBoxes, the
# planner's one-round check reordered: no change of behaviour), then data-parallel 128 x 320
# forced against auto and cuBLAS on 60 one-round shapes whose K-major rows are misaligned
# (shapes.txt: where the model predicts the 128 x 320 tile 2-42% faster than auto's pick, which
# PlanFourTiles' misaligned-rows gate forbids), tn fp16 twice, tn bf16 once.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-misbroad
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
run() {  # name, extra flags
  local n=$1; shift
  timeout 100 $g/run streamk-bench --shapes $d/shapes.txt --rotate --reps 21 --inner 5 \
    --modes auto,dp/128x320x64,cublas --csv $o/$n.csv "$@" > $o/$n.txt 2>&1
  echo "$n exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/$n.txt
}
run tn-fp16-1 --layout tn
run tn-bf16-1 --layout tn --dtype bf16
run tn-fp16-2 --layout tn
cd $OUT && tar czf all.tgz r && rm -rf r && ls
