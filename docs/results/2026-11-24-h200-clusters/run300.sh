#!/usr/bin/env bash
# Session 56, run 300: the final planner (padded_columns_load 0.8, split-K's plans on clusters
# left out). Every GPU test; the moved shapes whose old pick run 299 did not time exactly, and
# those that ran split-K on clusters (exact_modes.txt), timed in auto, dp and the old pick's very
# plan (its mode with the split count or the hybrid's tiles and blocks), tn fp16 twice and bf16
# once.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-clusters
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
for mode in $(awk '{print $5}' $d/exact_modes.txt | sort -u); do
  awk -v m=$mode '$5 == m {print $1, $2, $3, $4}' $d/exact_modes.txt > /tmp/s.txt
  tag=$(echo $mode | tr '/:@' '___')
  for p in tn-fp16-1:fp16 tn-bf16-1:bf16 tn-fp16-2:fp16; do
    timeout 60 $g/run streamk-bench --shapes /tmp/s.txt --rotate --reps 21 --inner 5 \
      --modes auto,dp,$mode --layout tn --dtype ${p#*:} --csv $o/${p%:*}-$tag.csv \
      > $o/${p%:*}-$tag.txt 2>&1 || echo "$mode $p exit $?"
  done
done
echo "exact modes done at $SECONDS s"
cd $OUT && tar czf all.tgz r && rm -rf r && ls
