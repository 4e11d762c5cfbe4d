#!/usr/bin/env bash
# Session 40, run 222: the stream terms out of sample. auto (this build) against every tile's
# data-parallel plan and cuBLAS over check.txt, fp16 and bf16, two passes; then every GPU test.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
shapes=docs/results/2026-11-23-h200-crosstile/check.txt
modes=auto,dp/128x128x64,dp/128x256x64,cublas
for pass in 1 2; do
  for dt in fp16 bf16; do
    timeout 120 $g/run streamk-bench --shapes $shapes --dtype $dt --modes $modes \
      --csv $o/check-$dt-$pass.csv > $o/check-$dt-$pass.txt 2>&1
    echo "$dt $pass exit $? wrong $(grep -c -E 'ERROR|WRONG' $o/check-$dt-$pass.txt)"
  done
done
GPU_TEST_TIMEOUT=240 timeout 400 bash scripts/gpu_check.sh $g $o/gpucheck > $o/gpucheck.txt 2>&1
echo "gpu_check exit $?"; grep -E "PASSED|FAILED" $o/gpucheck/gpu_tests.log | head
cd $OUT && tar czf all.tgz r && rm -rf r && ls
