#!/usr/bin/env bash
# Session 55, run 296: the final planner (kMinDpOverClustersGain 8%). Every GPU test; the final
# moves (moved_final.txt) with the old picks' modes forced, tn fp16 once; the issue's waveq
# command.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-misbroad
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
fm=auto,dp,dp/256x256x64,streamk/256x256x64,splitk/256x256x64,dp/128x256x64,streamk/128x256x64
fm=$fm,dp/128x192x64,dp/128x128x64,cublas
timeout 60 $g/run streamk-bench --shapes $d/moved_final.txt --rotate --reps 21 --inner 5 \
  --modes $fm --layout tn --csv $o/tn-fp16-1.csv > $o/tn-fp16-1.txt 2>&1
echo "moved exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/tn-fp16-1.txt
timeout 120 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  --csv $o/waveq-issue-command.csv > $o/waveq-issue-command.txt 2>&1
echo "waveq exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
