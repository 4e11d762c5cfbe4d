#!/usr/bin/env bash
# Session 46, run 253, the final build (copies launched programmatically, the transposing copy's
# loads batched, wide misaligned M-/N-major rows priced and copied where it pays): every GPU test
# (scripts/gpu_check.sh), then auto against cuBLAS on run 249's decode rows (nn and tn) and on
# wide2.txt (nn, nt, tt); fp16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
m=docs/results/2026-11-23-h200-mnmajor d=docs/results/2026-11-23-h200-pdlcopy
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
for l in nn tn; do
  timeout 60 $g/run streamk-bench --shapes $m/shapes.txt --layout $l --modes auto,cublas \
    --reps 21 --inner 5 --csv $o/decode-$l.csv > $o/decode-$l.txt 2>&1
  echo "decode $l exit $? at $SECONDS s"
done
for l in nn nt tt; do
  timeout 60 $g/run streamk-bench --shapes $d/wide2.txt --layout $l --modes auto,cublas \
    --reps 15 --inner 5 --csv $o/wide-$l.csv > $o/wide-$l.txt 2>&1
  echo "wide $l exit $? at $SECONDS s"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
