#!/usr/bin/env bash
# Session 33, run 176: gemm() takes any leading dimension (copies of unaligned A and B, element
# stores for unaligned C and D). Every GPU test (the new GemmGpu.AnyLeading* on all three
# mainloops), then the unaligned shapes packed (as a contiguous tensor stores them) and padded to
# 8 elements, with cuBLAS in the same call; then the issue's waveq command.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-22-h200-anyld
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 420 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
for dt in fp16 bf16; do
  for pack in packed padded; do
    flag=""; [[ $pack == packed ]] && flag="--packed"
    timeout 100 $g/run streamk-bench --shapes $d/unaligned-shapes.txt $flag --dtype $dt \
      --modes auto,dp,cublas --warmup 3 --reps 15 --inner 5 --csv $o/$pack-$dt.csv \
      > $o/$pack-$dt.txt 2> $o/$pack-$dt.err
    echo "$pack $dt exit $?"
  done
done
timeout 100 $g/run streamk-plan 4096 4096 4097 > $o/plan-k4097.txt 2>&1
timeout 150 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2> $o/waveq.err
echo "waveq exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
