#!/usr/bin/env bash
# Session 51, run 273: the 3% rule on the final build over the prefill grid's 76 shapes where auto
# is not data-parallel (grid.txt): auto, dp and cuBLAS, cold caches; tn fp16 three passes, nn fp16
# and tn bf16 one each; the SM clock logged. No GPU test (run 271's planner; the bench's new mode
# was run in run 272).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-clock
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,\
clocks_event_reasons.active --format=csv,nounits -lms 100 > $o/clock.csv 2>&1 &
smi=$!
for run in "tn fp16 1" "tn fp16 2" "tn fp16 3" "nn fp16 1" "tn bf16 1"; do
  set -- $run
  timeout 170 $g/run streamk-bench --shapes $d/grid.txt --layout $1 --dtype $2 --rotate \
    --modes auto,dp,cublas --reps 21 --inner 5 --csv $o/grid-$1-$2-$3.csv \
    > $o/grid-$1-$2-$3.txt 2>&1
  echo "$1 $2 pass $3 exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/grid-$1-$2-$3.txt
done
kill $smi
cd $OUT && tar czf all.tgz r && rm -rf r && ls
