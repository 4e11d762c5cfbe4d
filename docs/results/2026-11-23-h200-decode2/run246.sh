#!/usr/bin/env bash
# Session 43, run 246: the final build (after the review's change to the fifth tile's reason
# text). Every GPU test, then the decode rows the session's two planner changes move
# (shapes-moved.txt, shapes-rounds.txt), auto against the picks before and cuBLAS, layout tn,
# fp16, one pass.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-decode2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 400 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check.txt | head -30
for f in moved rounds; do
  timeout 100 $g/run streamk-bench --shapes $d/shapes-$f.txt --modes auto,dp/128x128x64,cublas \
    --reps 31 --inner 5 --csv $o/final-$f.csv > $o/final-$f.txt 2>&1
  echo "$f exit $?"; sed -n '/# summary/,$p' $o/final-$f.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
