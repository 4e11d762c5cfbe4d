#!/usr/bin/env bash
# Session 39, run 220: every GPU test (scripts/gpu_check.sh: the TMA, mma.sync and cp.async
# mainloops) on the final build (090811b: copied operands' rows priced as on 128-byte lines, and
# the review's comments), then the waveq command against cuBLAS.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 420 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "check exit $?"; grep -E "chunk|FAILED" $o/check/gpu_tests.log | head -30
for dt in fp16 bf16; do
  timeout 80 $g/run streamk-bench --set waveq --dtype $dt --modes auto,dp,splitk,cublas \
    --csv $o/waveq-$dt.csv > $o/waveq-$dt.txt 2>&1
  echo "waveq $dt exit $?"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
