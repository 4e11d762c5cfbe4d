#!/usr/bin/env bash
# Session 52, run 279 (an experiment build: XP_MAIN=X in the environment gives the third tile a
# margin of -X over every tile Stream-K on 128 x 256, i.e. 128 x 192 data-parallel is taken
# unless Stream-K is predicted X faster). The picks that move at X = 0.03: 7 of the 1440 prefill
# shapes (q01-q07) and 17 of 12000 random ones (x01-x17) in wide_moved.txt, each with auto as it
# is (the old pick), every tile Stream-K on 128 x 256 and data-parallel 128 x 192 forced, dp and
# cuBLAS; then auto under XP_MAIN=0.03 (the new pick) in a second call. Cold caches; tn fp16
# three passes, nn fp16 and tn bf16 one. SM clock logged.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-rows5
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,\
clocks_event_reasons.active --format=csv,nounits -lms 100 > $o/clock.csv 2>&1 &
smi=$!
fm=auto,dp,streamk:132/128x256x64,dp/128x192x64,cublas
for run in "tn fp16 1" "tn fp16 2" "tn fp16 3" "nn fp16 1" "tn bf16 1"; do
  set -- $run
  timeout 100 $g/run streamk-bench --shapes $d/wide_moved.txt --layout $1 --dtype $2 --rotate \
    --modes $fm --reps 21 --inner 5 --csv $o/wide-$1-$2-$3.csv > $o/wide-$1-$2-$3.txt 2>&1
  echo "$1 $2 pass $3 exit $? at $SECONDS s"
  XP_MAIN=0.03 timeout 60 $g/run streamk-bench --shapes $d/wide_moved.txt --layout $1 \
    --dtype $2 --rotate --modes auto --reps 21 --inner 5 --csv $o/xp-$1-$2-$3.csv \
    > $o/xp-$1-$2-$3.txt 2>&1
  echo "xp exit $? at $SECONDS s"
done
kill $smi
cd $OUT && tar czf all.tgz r && rm -rf r && ls
