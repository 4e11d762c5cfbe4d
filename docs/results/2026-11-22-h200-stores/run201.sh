#!/usr/bin/env bash
# Session 36, run 201: run 200's waveq outlier, 532tiles 4864x3584x4096 (auto's Stream-K hybrid
# read 0.948 of dp there, 1.04-1.06 in runs 180-195), against the build before (c1118bc's
# streamk-trace, bundled as streamk-trace-before): streamk-trace's untraced time of auto and dp,
# three rounds alternating; then the waveq command on that shape, three times.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
for round in 1 2 3; do
  for build in before after; do
    sfx=""; [[ $build == before ]] && sfx="-before"
    for mode in auto dp; do
      echo "=== $build $round $mode 3584 4864 4096"
      timeout 60 $g/run streamk-trace$sfx 3584 4864 4096 --mode $mode 2>&1 |
        grep -E "checked|untraced|per block|pieces"
    done >> $o/traces.txt
  done
done
grep -E "===|untraced" $o/traces.txt | paste - - | awk '{print $2, $3, $4, $5, $6, $7, $9}'
for i in 1 2 3; do
  timeout 60 $g/run streamk-bench --shape 4864x3584x4096 --modes auto,dp,splitk,cublas \
    > $o/bench-$i.txt 2> $o/bench-$i.err
  grep 532 $o/bench-$i.txt || grep "4864x3584" $o/bench-$i.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
