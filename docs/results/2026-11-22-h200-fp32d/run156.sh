#!/usr/bin/env bash
# Session 28, run 156, HEAD cf02f72 (streamk-bench fills its inputs on the GEMMs' stream): the
# issue's sets with D fp32, auto, dp and cuBLAS, as in run 155, whose reference for 70b.down.m512
# raced with the fills; then the llm set twice more.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
timeout 100 $g/run streamk-bench --set paper,waveq,llm --count 150 --seed 1 --dtype fp16 \
  --out_dtype fp32 --modes auto,dp,cublas --warmup 3 --reps 15 --inner 5 \
  --csv $o/fp32.csv --svg $o/fp32.svg > $o/fp32.txt 2> $o/fp32.err
echo "fp32 exit $?"; sed -n '/# summary/,$p' $o/fp32.txt; grep -c WRONG $o/fp32.txt
for p in 1 2; do
  timeout 60 $g/run streamk-bench --set llm --dtype fp16 --out_dtype fp32 --modes auto,cublas \
    --warmup 3 --reps 15 --inner 5 > $o/llm-$p.txt 2> /dev/null
  echo "llm $p exit $?"; grep -c WRONG $o/llm-$p.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
