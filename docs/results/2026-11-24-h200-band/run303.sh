#!/usr/bin/env bash
# Session 57, run 303: DataParallelOverMisalignedSplit. Every GPU test on the new planner; the
# picks that move (band_shapes.txt: moves.py over seeds 11 and 7 and the sets, then seeds
# 71-76) timed in auto and dp by the new build and in auto by the old (streamk-bench-old, HEAD
# 8a21c2d: the old pick's very plan), tn fp16 twice and bf16 once. The band's upper bound was then
# two thirds of the SMs (run 304 has the final three fifths). The shapes:
#   python3 ../2026-11-24-h200-clusters/moves.py OLD NEW > moved_default.txt
#   python3 ../2026-11-24-h200-clusters/moves.py OLD NEW 71,72,73,74,75,76 > moved_new.txt
#   (grep -v '^#' moved_default.txt; grep -v '^#' moved_new.txt) > band_shapes.txt
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-band
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
for p in tn-fp16-1:fp16 tn-bf16-1:bf16 tn-fp16-2:fp16; do
  timeout 100 $g/run streamk-bench --shapes $d/band_shapes.txt --rotate --reps 21 --inner 5 \
    --modes auto,dp --layout tn --dtype ${p#*:} --csv $o/${p%:*}.csv > $o/${p%:*}.txt 2>&1
  echo "${p%:*} new exit $? at $SECONDS s"
  timeout 60 $g/run streamk-bench-old --shapes $d/band_shapes.txt --rotate --reps 21 --inner 5 \
    --modes auto --layout tn --dtype ${p#*:} --csv $o/${p%:*}-old.csv > $o/${p%:*}-old.txt 2>&1
  echo "${p%:*} old exit $? at $SECONDS s"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
