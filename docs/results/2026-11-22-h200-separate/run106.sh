#!/usr/bin/env bash
# Session 21, run 106: split-K with a separate reduction at 4-16 splits on separate-shapes.txt,
# next to auto (this build weighs a separate reduction at one block per SM), dp, the best
# turnstile split-K and Stream-K, and cuBLAS; from CUDA graphs and back to back, fp16.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH="$g/lib"
d=docs/results/2026-11-22-h200-separate
m=auto,dp,splitk,streamk,splitk:4@separate,splitk:6@separate,splitk:8@separate,splitk:10@separate,splitk:12@separate,splitk:16@separate,cublas
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $o/gpu.txt
for t in graph launch; do
  f=""; [ $t = graph ] && f=--graph
  $g/run streamk-bench --shapes $d/separate-shapes.txt --dtype fp16 $f --modes $m \
    --warmup 3 --reps 15 --inner 5 --csv $o/sep-$t.csv > $o/sep-$t.txt 2> $o/sep-$t.err
  echo "$t exit $?"; sed -n '/# summary/,$p' $o/sep-$t.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
