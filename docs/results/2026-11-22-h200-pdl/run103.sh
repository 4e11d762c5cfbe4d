#!/usr/bin/env bash
# Session 20, run 103: the paper set's few-tile deep-K shapes (fewtile-shapes.txt), which read
# 0.40-0.9 of cuBLAS in CUDA graph replays (run 102), under auto, dp, split-K with 2, 4, 8 and 16
# splits, Stream-K over every SM and cuBLAS, timed from CUDA graphs; fp16 and bf16.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH="$g/lib"
d=docs/results/2026-11-22-h200-pdl
for dt in fp16 bf16; do
  $g/run streamk-bench --shapes $d/fewtile-shapes.txt --dtype $dt --graph \
    --modes auto,dp,splitk:2,splitk:4,splitk:8,splitk:16,streamk,cublas --warmup 3 --reps 15 --inner 5 \
    --csv $o/fewtile-$dt.csv > $o/fewtile-$dt.txt 2> $o/fewtile-$dt.err
  echo "$dt exit $?"; sed -n '/# summary/,$p' $o/fewtile-$dt.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
