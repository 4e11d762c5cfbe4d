#!/usr/bin/env bash
# Session 54, run 290: the final kernel (the 128 x 320 TMA store; StoreRest bounded by the round's
# own columns after run 289's failure) and planner (no depth gate where that tile stores D by
# TMA): every GPU test; the 16 moved picks (moved.txt) against their old pick forced in the same
# passes (tn fp16 twice, nn fp16, tn bf16); the issue's waveq command.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-async320
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
run() {  # name, extra flags
  local n=$1; shift
  timeout 100 $g/run streamk-bench --shapes $d/moved.txt --rotate --reps 21 --inner 5 \
    --modes auto,dp,dp/128x128x64,dp/128x320x64,cublas --csv $o/$n.csv "$@" > $o/$n.txt 2>&1
  echo "$n exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/$n.txt
}
run tn-fp16-1 --layout tn
run nn-fp16-1 --layout nn
run tn-bf16-1 --layout tn --dtype bf16
run tn-fp16-2 --layout tn
timeout 120 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  --csv $o/waveq-issue-command.csv > $o/waveq-issue-command.txt 2>&1
echo "waveq exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
