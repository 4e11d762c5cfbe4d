#!/usr/bin/env bash
# Session 53, run 287: the final build (the sixth tile only with 16 k-iterations a tile or more,
# kMinBroadTileIters). Every GPU test; the issue's waveq command; the paper and llm sets against
# dp and cuBLAS; the prefill grid's 16 moved shapes once more (tn fp16) with their old picks.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-broad
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
timeout 120 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  --csv $o/waveq-issue-command.csv > $o/waveq-issue-command.txt 2>&1
echo "waveq exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/waveq-issue-command.txt
for s in paper llm; do
  timeout 150 $g/run streamk-bench --set $s --modes auto,dp,cublas --csv $o/$s.csv \
    > $o/$s.txt 2>&1
  echo "$s exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/$s.txt
done
grep -v '^r\.' $d/moved.txt > $o/grid_moved_shapes.txt
fm=auto,dp,dp/128x192x64,dp/128x256x64,streamk/128x256x64,streamk/128x128x64
fm=$fm,streamk-tail/128x256x64,cublas
timeout 120 $g/run streamk-bench --shapes $o/grid_moved_shapes.txt --rotate --modes $fm \
  --reps 21 --inner 5 --layout tn --csv $o/grid-tn-fp16.csv > $o/grid-tn-fp16.txt 2>&1
echo "grid exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/grid-tn-fp16.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
