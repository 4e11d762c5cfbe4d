#!/usr/bin/env bash
# Session 50, run 268: the final build, which prices the turnstile's chain as the blocks walk it
# where data-parallel tiles follow the Stream-K blocks (a tile's first peer publishes off it
# where blocks straddle tiles). Every GPU test (scripts/gpu_check.sh); then run 267's rows
# again, cold, tn and nn: auto against the old picks and the alternatives, fp16; the issue's
# command.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-chain
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
fm=auto,streamk:132/128x256x64,streamk-tail/128x256x64,streamk-tail/128x256x64@separate,dp
fm=$fm,dp/128x256x64,dp/128x192x64,dp/128x128x64,cublas
for layout in tn nn; do
  timeout 150 $g/run streamk-bench --shapes $d/rows.txt --layout $layout --rotate --modes $fm \
    --reps 21 --inner 5 --csv $o/rows-$layout.csv > $o/rows-$layout.txt 2>&1
  echo "rows $layout exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/rows-$layout.txt
done
timeout 150 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  --csv $o/waveq-issue-command.csv > $o/waveq-issue-command.txt 2>&1
echo "waveq exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
