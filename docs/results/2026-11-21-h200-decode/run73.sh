#!/usr/bin/env bash
# Session 16, run 73 (final build): the reductions and tails on decode shapes: split-k with the
# turnstile (auto's), a separate reduction wave, more splits, and the one-tile tail on 128x128
# tiles, 31 repetitions, twice.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o; d=$(pwd)/docs/results/2026-11-21-h200-decode
export LD_LIBRARY_PATH="$g/lib"
m=auto,dp,splitk/128x128x64,splitk/128x128x64@separate,splitk:8/128x128x64,splitk:8/128x128x64@separate,streamk/128x128x64,streamk-tail/128x128x64,streamk-tail/128x128x64@separate,cublas
for pass in 1 2; do
  timeout 120 $g/run streamk-bench --shapes $d/decode-deep-shapes.txt --modes $m --warmup 3 --reps 31 \
    --inner 5 --csv $o/deep-$pass.csv > $o/deep-$pass.txt 2>$o/deep-$pass.err; echo "pass $pass rc $?"
done
cat $o/deep-1.txt
cd $o && tar czf all.tgz * && find . -type f ! -name all.tgz -delete && ls
