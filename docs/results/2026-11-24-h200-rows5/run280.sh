#!/usr/bin/env bash
# Session 52, run 280: the 256 x 256 cluster configuration (2 SMs share B by multicast, so both
# 128-row halves of a 256-token column read each B panel once) forced data-parallel, every tile
# Stream-K and the partial round's tiles Stream-K, against auto, dp and cuBLAS on the prefill rows
# of cluster_rows.txt. Cold caches; tn fp16 three passes, nn fp16 one. SM clock logged.
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
fm=auto,dp,dp/256x256x64,streamk/256x256x64,streamk-tail/256x256x64,cublas
for run in "tn 1" "tn 2" "tn 3" "nn 1"; do
  set -- $run
  timeout 100 $g/run streamk-bench --shapes $d/cluster_rows.txt --layout $1 --rotate \
    --modes $fm --reps 21 --inner 5 --csv $o/cluster-$1-$2.csv > $o/cluster-$1-$2.txt 2>&1
  echo "$1 pass $2 exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/cluster-$1-$2.txt
done
kill $smi
cd $OUT && tar czf all.tgz r && rm -rf r && ls
