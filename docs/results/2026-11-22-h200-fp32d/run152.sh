#!/usr/bin/env bash
# Session 28, run 152: the planner's picks for fp32 D, never checked against other plans since the
# fp32 TMA store (session 27). The sets (paper: 150 shapes, seed 1), fp16 in, HEAD 435586b:
# (1) D fp32 with auto, dp, splitk, streamk and the third and fourth tiles data-parallel, and
# cuBLAS; (2) D fp16 with the same data-parallel plans, for the fp32 epilogue's cost per tile.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $o/gpu.txt
timeout 330 $g/run streamk-bench --set paper,waveq,llm --count 150 --seed 1 --dtype fp16 \
  --out_dtype fp32 --modes auto,dp,splitk,streamk,dp/128x192x64,dp/192x192x64,cublas \
  --warmup 3 --reps 15 --inner 5 --csv $o/fp32.csv > $o/fp32.txt 2> $o/fp32.err
echo "fp32 exit $?"; sed -n '/# summary/,$p' $o/fp32.txt
timeout 200 $g/run streamk-bench --set paper,waveq,llm --count 150 --seed 1 --dtype fp16 \
  --out_dtype fp16 --modes auto,dp,dp/128x192x64,dp/192x192x64 \
  --warmup 3 --reps 15 --inner 5 --csv $o/fp16.csv > $o/fp16.txt 2> $o/fp16.err
echo "fp16 exit $?"; sed -n '/# summary/,$p' $o/fp16.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
