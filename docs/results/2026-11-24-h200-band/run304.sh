#!/usr/bin/env bash
# Session 57, run 304: the final rule (its tiles on a quarter to three fifths of the SMs). Every
# GPU test; the picks it moves off the old planner over fresh seeds 81-86 (final_shapes.txt,
# moves.py) timed in auto and dp by the new build and in auto by the old (streamk-bench-old, HEAD
# 8a21c2d), tn fp16 twice and bf16 once; and run 303's shapes on the new build (auto, dp, cuBLAS)
# once in fp16. It ran as gpu-b/run304.sh with d=gpu-b (these files carried beside the bundle: the
# tree with this folder was over the device's 64 MiB). The shapes:
#   python3 ../2026-11-24-h200-clusters/moves.py OLD NEW 81,82,83,84,85,86 > moved_final.txt
#   grep -v '^#' moved_final.txt > final_shapes.txt
# (moved_default06.txt: the final rule's moves over seeds 11 and 7 and the sets.)
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
  timeout 100 $g/run streamk-bench --shapes $d/final_shapes.txt --rotate --reps 21 --inner 5 \
    --modes auto,dp --layout tn --dtype ${p#*:} --csv $o/${p%:*}.csv > $o/${p%:*}.txt 2>&1
  echo "${p%:*} new exit $? at $SECONDS s"
  timeout 60 $g/run streamk-bench-old --shapes $d/final_shapes.txt --rotate --reps 21 --inner 5 \
    --modes auto --layout tn --dtype ${p#*:} --csv $o/${p%:*}-old.csv > $o/${p%:*}-old.txt 2>&1
  echo "${p%:*} old exit $? at $SECONDS s"
done
timeout 100 $g/run streamk-bench --shapes $d/band_shapes.txt --rotate --reps 21 --inner 5 \
  --modes auto,dp,cublas --layout tn --dtype fp16 --csv $o/band303.csv > $o/band303.txt 2>&1
echo "band303 exit $? at $SECONDS s"
cd $OUT && tar czf all.tgz r && rm -rf r && ls
