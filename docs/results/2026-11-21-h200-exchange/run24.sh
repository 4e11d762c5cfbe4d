#!/usr/bin/env bash
# Session 8, run 24: the final code (the faster take, the cost model as it was). The issue's
# waveq command, then the paper and llm sets in fp16 against dp and cuBLAS, and waveq in bf16.

set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
timeout 300 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
tail -6 $o/waveq-issue-command.txt
timeout 420 $g/run streamk-bench --set paper,llm --count 150 --seed 1 --dtype fp16 \
  --modes auto,dp,cublas --warmup 3 --reps 9 --inner 5 \
  --csv $o/bench-fp16.csv > $o/bench-fp16.txt 2>/dev/null
tail -8 $o/bench-fp16.txt
timeout 200 $g/run streamk-bench --set waveq --dtype bf16 --modes auto,dp,splitk,cublas > $o/waveq-bf16.txt 2>/dev/null
tail -6 $o/waveq-bf16.txt
