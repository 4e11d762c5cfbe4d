#!/usr/bin/env bash
# Session 27, run 151: after the review (the epilogue's box and round widths derived once; no
# change in behaviour). (1) Every GPU test. (2) The sets with fp32 D, auto and cuBLAS.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
timeout 240 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "PASSED|FAILED|exit" $o/check/gpu_tests.log | head -30
timeout 60 $g/run streamk-bench --set paper,waveq,llm --count 150 --seed 1 --dtype fp16 \
  --out_dtype fp32 --modes auto,cublas --warmup 3 --reps 15 --inner 5 > $o/fp32.txt 2> /dev/null
echo "fp32 exit $?"; sed -n '/# summary/,$p' $o/fp32.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
