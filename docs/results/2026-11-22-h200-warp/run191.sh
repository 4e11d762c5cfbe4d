#!/usr/bin/env bash
# Session 35, run 191: who issues the rows' bulk copies, A/B on one machine, three rounds
# alternating STREAMK_ROW_COPIES=compute, =warp and the launch's pick (unset): streamk-bench on
# GPT-2's logits (packed, 50257 words) at 512 and 4096 tokens, padded at 4096, 1023^3 packed
# and a 7-token decode step of 11008 outputs packed (rows of 7 elements), fp16; and
# streamk-trace's untraced time on its own D (ldd = n rounded up to 8).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
shapes="--shape 50257x4096x768 --shape 50257x512x768 --shape 1023x1023x1023 --shape 7x11008x4096"
for round in 1 2 3; do
  for copies in compute warp pick; do
    env=""; [[ $copies != pick ]] && env="STREAMK_ROW_COPIES=$copies"
    f=$o/packed-$copies-$round
    env $env timeout 60 $g/run streamk-bench $shapes --packed --modes auto --warmup 3 --reps 31 \
      --inner 5 --csv $f.csv > $f.txt 2> $f.err
    echo "packed $copies $round exit $?"
    f=$o/padded-$copies-$round
    env $env timeout 60 $g/run streamk-bench --shape 50257x4096x768 --modes auto --warmup 3 \
      --reps 31 --inner 5 --csv $f.csv > $f.txt 2> $f.err
    echo "padded $copies $round exit $?"
    for sh in "4096 50257 768" "512 50257 768" "1023 1023 1023" "11008 7 4096"; do
      echo "=== $copies $round $sh"
      env $env timeout 60 $g/run streamk-trace $sh 2>&1 | grep -E "untraced|per block"
    done >> $o/traces.txt
  done
done
grep -A1 "===" $o/traces.txt | grep -E "===|untraced" | paste - - | awk '{print $2, $3, $4, $5, $6, $8}'
cd $OUT && tar czf all.tgz r && rm -rf r && ls
