#!/usr/bin/env bash
# Session 45, run 249: decode rows whose tokens operand is N-major (layout nn) as they are, against
# the same rows with that operand copied to K-major rows first (--repack a: the user's A is the
# kernel's B, D column-major), and against layout tn (K-major tokens); auto, data-parallel on
# 128 x 128 and 64 x 128, and cuBLAS, fp16, two passes. Then the GPU tests of the copies.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-mnmajor
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
for pass in 1 2; do
  for v in nn-off nn-a tn-auto; do
    timeout 150 $g/run streamk-bench --shapes $d/shapes.txt --layout ${v%-*} --repack ${v#*-} \
      --modes auto,dp/128x128x64,dp/64x128x64,cublas --reps 21 --inner 5 \
      --csv $o/$v-$pass.csv > $o/$v-$pass.txt 2>&1
    echo "$v $pass exit $?"
  done
done
timeout 200 $g/run streamk_gpu_tests --gtest_filter='GemmGpu.NarrowMn*:GemmGpu.Repacked*:GemmGpu.AnyLeading*' > $o/tests.txt 2>&1
echo "tests exit $?"; grep -E "^\[  (PASSED|FAILED)|Failure" $o/tests.txt | head
cd $OUT && tar czf all.tgz r && rm -rf r && ls
