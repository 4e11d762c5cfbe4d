#!/usr/bin/env bash
# Session 55, run 294: the final planner (the 128 x 320 tile on misaligned rows, weighed against
# auto's clusters too: BroadOverClusters). Every GPU test; moved2.txt's 29 shapes (picks moved
# from clusters, and shapes where auto and dp disagree on that tile) with the old picks and the
# other tiles forced in the same passes (tn fp16 twice, tn bf16 once); then the headline
# benchmark (docs/results/2026-11-24-h200-headline/run294.sh) on the same build.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-misbroad
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
fm=auto,dp,dp/256x256x64,streamk/256x256x64,dp/128x320x64,dp/192x192x64,dp/128x192x64
fm=$fm,streamk/128x256x64,cublas
run() {  # name, extra flags
  local n=$1; shift
  timeout 100 $g/run streamk-bench --shapes $d/moved2.txt --rotate --reps 21 --inner 5 \
    --modes $fm --csv $o/$n.csv "$@" > $o/$n.txt 2>&1
  echo "$n exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/$n.txt
}
run tn-fp16-1 --layout tn
run tn-bf16-1 --layout tn --dtype bf16
run tn-fp16-2 --layout tn
OUT=$OUT/h bash docs/results/2026-11-24-h200-headline/run294.sh
cd $OUT && tar czf all.tgz r h/all.tgz && rm -rf r h && ls
