#!/usr/bin/env bash
# Session 34, run 188: the final build, after the second review (one RowOffset for RunRows and
# its staging; one ExpectCorrect for the GPU tests that check nothing outside D is written).
# Every GPU test, then session 33's unaligned shapes packed (with cuBLAS), fp16 and bf16, and
# GPT-2's logits against the padded vocabularies.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
s=docs/results/2026-11-22-h200-anyld/unaligned-shapes.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 420 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
for dt in fp16 bf16; do
  timeout 100 $g/run streamk-bench --shapes $s --packed --dtype $dt --modes auto,dp,cublas \
    --warmup 3 --reps 15 --inner 5 --csv $o/packed-$dt.csv > $o/packed-$dt.txt 2> $o/packed-$dt.err
  echo "packed $dt exit $?"; sed -n "/# summary/,\$p" $o/packed-$dt.txt
done
for dt in fp16 bf16; do
  timeout 60 $g/run streamk-bench --shapes docs/results/2026-11-22-h200-rows/vocab-shapes.txt \
    --packed --dtype $dt --modes auto,cublas --warmup 3 --reps 31 --inner 5 \
    --csv $o/vocab-packed-$dt.csv > $o/vocab-packed-$dt.txt 2> $o/vocab-packed-$dt.err
  echo "vocab packed $dt exit $?"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
