#!/usr/bin/env bash
# Session 20, run 104: run 103's few-tile shapes with split-K reduced by a separate reduction wave
# (@separate) or atomically (@atomic) instead of the turnstile, from CUDA graphs, fp16.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH="$g/lib"
d=docs/results/2026-11-22-h200-pdl
$g/run streamk-bench --shapes $d/fewtile-shapes.txt --dtype fp16 --graph \
  --modes auto,dp,splitk:4@separate,splitk:8@separate,splitk:16@separate,splitk:8@atomic,splitk:16@atomic,streamk@separate,cublas \
  --warmup 3 --reps 15 --inner 5 --csv $o/fewtile-reductions-fp16.csv > $o/fewtile-reductions-fp16.txt 2> $o/fewtile-reductions-fp16.err
echo "exit $?"; sed -n '/# summary/,$p' $o/fewtile-reductions-fp16.txt; grep -c ERROR $o/fewtile-reductions-fp16.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
