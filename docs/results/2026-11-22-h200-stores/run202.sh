#!/usr/bin/env bash
# Session 36, run 202: every GPU test after the review commits (bd806bd: TensorColumnsOf takes the
# rows' alignment, EncodeOutput no longer tests it beside; 685eda5: host code only), with all
# three mainloops; then GPT-2's logits in padded and packed rows and 4096^3 through streamk-bench
# against cuBLAS in the same call (auto's path for D unchanged: same times as run 200 expected).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
v=docs/results/2026-11-22-h200-rows/vocab-shapes.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 500 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
for pack in packed padded; do
  flag=""; [[ $pack == packed ]] && flag="--packed"
  timeout 100 $g/run streamk-bench --shapes $v $flag --modes auto,cublas --warmup 3 --reps 15 \
    --inner 5 --csv $o/vocab-$pack.csv > $o/vocab-$pack.txt 2> $o/vocab-$pack.err
  echo "vocab $pack exit $?"; grep -E "gpt2|summary|cublas " $o/vocab-$pack.txt | head -12
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
