#!/usr/bin/env bash
# Session 52, run 283: the final build after the review (PlanFourTiles looks up the pick's cost
# model once; no pick moves). Every GPU test (scripts/gpu_check.sh); the issue's command against
# cuBLAS in the same call; the 26 moved shapes once more (tn fp16).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-rows5
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
timeout 120 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  --csv $o/waveq-issue-command.csv > $o/waveq-issue-command.txt 2>&1
echo "waveq exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/waveq-issue-command.txt
fm=auto,dp,streamk:132/128x128x64,streamk:131/128x256x64,dp/128x256x64,dp/128x192x64,cublas
timeout 110 $g/run streamk-bench --shapes $d/moved.txt --layout tn --rotate --modes $fm \
  --reps 21 --inner 5 --csv $o/moved-tn-fp16-1.csv > $o/moved-tn-fp16-1.txt 2>&1
echo "moved exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/moved-tn-fp16-1.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
