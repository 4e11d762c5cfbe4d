#!/usr/bin/env bash
# Session 43, run 239: packed rings (RingOf). Every GPU test (scripts/gpu_check.sh), then the
# decode rows both ways round (shapes-ring.txt), auto and cuBLAS, packed against STREAMK_RING=whole
# in alternating calls, three passes, fp16 (layouts tn and, for the m/n-contiguous boxes, nn).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-decode2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
for pass in 1 2 3; do
  for ring in packed whole; do
    for layout in tn nn; do
      STREAMK_RING=$ring timeout 100 $g/run streamk-bench --shapes $d/shapes-ring.txt \
        --layout $layout --modes auto,cublas --reps 31 --inner 5 \
        --csv $o/ring-$ring-$layout-$pass.csv > $o/ring-$ring-$layout-$pass.txt 2>&1
      echo "$ring $layout $pass exit $?"
    done
  done
done
GPU_TEST_TIMEOUT=240 timeout 420 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check.txt | head -30
cd $OUT && tar czf all.tgz r && rm -rf r && ls
