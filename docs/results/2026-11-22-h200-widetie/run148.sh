#!/usr/bin/env bash
# Session 27, run 148: the layouts and the fp32 output the benchmark has not timed since session 6.
# The sets (paper: 150 shapes, seed 1), fp16 in, auto, dp and cuBLAS, 15 repetitions:
# layouts nn, nt and tt with fp16 D, and tn with fp32 D. This build (7580772).
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
for v in nn:fp16 nt:fp16 tt:fp16 tn:fp32; do
  lay=${v%%:*} out=${v##*:}
  timeout 130 $g/run streamk-bench --set paper,waveq,llm --count 150 --seed 1 --dtype fp16 \
    --out_dtype $out --layout $lay --modes auto,dp,cublas --warmup 3 --reps 15 --inner 5 \
    --csv $o/bench-$lay-$out.csv > $o/bench-$lay-$out.txt 2> $o/bench-$lay-$out.err
  echo "$lay $out exit $?"; sed -n '/# summary/,$p' $o/bench-$lay-$out.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
