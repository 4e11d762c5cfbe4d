#!/usr/bin/env bash
# Session 46, run 250: every GPU test (scripts/gpu_check.sh) on the build whose operand copies
# launch programmatically, then what that launch saves: the decode rows of run 249 in layout nn
# with the tokens copied first (--repack a) and in layout tn, on the same data-parallel plans
# and cuBLAS, with programmatic launch on and off; fp16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-mnmajor
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -25 $o/check.txt
for v in nn-a-on tn-off-on nn-a-off tn-off-off; do
  [[ $SECONDS -gt 540 ]] && { echo "$v skipped at $SECONDS s"; continue; }
  l=${v%-*}; p=${v##*-}
  timeout 60 $g/run streamk-bench --shapes $d/shapes.txt --layout ${l%-*} --repack ${l#*-} \
    --programmatic_launch=$([[ $p == on ]] && echo true || echo false) \
    --modes dp/128x128x64,dp/64x128x64,cublas --reps 15 --inner 5 \
    --csv $o/$v.csv > $o/$v.txt 2>&1
  echo "$v exit $? at $SECONDS s"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
