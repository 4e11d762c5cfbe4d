#!/usr/bin/env bash
# Session 52, run 277: the picks that move where the third tile (128 x 192) is taken over every
# tile Stream-K on the 128 x 128 configuration where predicted no slower: 24 of 12000 random
# paper-like shapes (moved.txt r01-r24) and the grid's two (g01-g02), with the old picks forced
# (streamk:132/128x128x64, streamk:131/128x256x64, dp/128x256x64), data-parallel 128 x 192 and
# cuBLAS, cold caches: tn fp16 two passes, nn fp16 and tn bf16 one. Then the prefill grid once
# (tn fp16) with the SM clock logged. No GPU test (a planner rule; run 276 passed them all).
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
fm=auto,dp,streamk:132/128x128x64,streamk:131/128x256x64,dp/128x256x64,dp/128x192x64,cublas
for run in "tn fp16 1" "tn fp16 2" "nn fp16 1" "tn bf16 1"; do
  set -- $run
  timeout 110 $g/run streamk-bench --shapes $d/moved.txt --layout $1 --dtype $2 --rotate \
    --modes $fm --reps 21 --inner 5 --csv $o/moved-$1-$2-$3.csv > $o/moved-$1-$2-$3.txt 2>&1
  echo "$1 $2 pass $3 exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/moved-$1-$2-$3.txt
done
timeout 170 $g/run streamk-bench --shapes docs/results/2026-11-24-h200-clock/grid.txt \
  --layout tn --rotate --modes auto,dp,cublas --reps 21 --inner 5 \
  --csv $o/grid-tn-fp16-1.csv > $o/grid-tn-fp16-1.txt 2>&1
echo "grid exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/grid-tn-fp16-1.txt
kill $smi
cd $OUT && tar czf all.tgz r && rm -rf r && ls
