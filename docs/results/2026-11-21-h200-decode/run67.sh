#!/usr/bin/env bash
# Session 16, run 67: the operand maps' L2 promotion (256 B, the default; 128 B; 64 B; none),
# from a build whose launch.cu read it from STREAMK_EXP_PROMOTION (gpu/exp/streamk-bench; an
# experiment, not committed), on the decode shapes and four compute-bound ones, two passes.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o; d=$(pwd)/docs/results/2026-11-21-h200-decode
export LD_LIBRARY_PATH="$g/lib"
m=auto,dp/128x128x64,streamk/128x128x64,cublas
for pass in 1 2; do
  for p in 256 128 64 none; do
    STREAMK_EXP_PROMOTION=$p timeout 90 $g/run exp/streamk-bench --shapes $d/decode-shapes.txt --modes $m \
      --warmup 3 --reps 31 --inner 5 --csv $o/promo-$p-$pass.csv > $o/promo-$p-$pass.txt 2>/dev/null
    echo "promotion $p pass $pass rc $?"
  done
done
cd $o && tar czf all.tgz * && find . -type f ! -name all.tgz -delete && ls
