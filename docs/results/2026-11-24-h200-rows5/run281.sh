#!/usr/bin/env bash
# Session 52, run 281: the prefill grid's rows furthest behind cuBLAS (behind.txt), each on every
# plan the bench can force (data-parallel, split-K at its best split, every tile Stream-K and the
# partial round's tiles Stream-K, on each kernel configuration that takes them) beside auto, dp
# and cuBLAS: how much of the gap a better pick would close. Cold caches; tn fp16 two passes.
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
fm=auto,dp,cublas,dp/128x256x64,dp/128x128x64,dp/128x192x64,dp/192x192x64,dp/64x128x64
fm=$fm,dp/256x256x64,splitk/128x256x64,splitk/128x128x64,splitk/64x128x64
fm=$fm,streamk/128x256x64,streamk/128x128x64,streamk/256x256x64,streamk-tail/128x256x64
for p in 1 2; do
  timeout 200 $g/run streamk-bench --shapes $d/behind.txt --layout tn --rotate \
    --modes $fm --reps 21 --inner 5 --csv $o/behind-tn-$p.csv > $o/behind-tn-$p.txt 2>&1
  echo "tn pass $p exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/behind-tn-$p.txt
done
kill $smi
cd $OUT && tar czf all.tgz r && rm -rf r && ls
