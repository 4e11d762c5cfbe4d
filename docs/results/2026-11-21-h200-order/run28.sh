#!/usr/bin/env bash
# Session 9, run 28: the final code (commit 77a4e5e, the work order of Plan::dp_blocks_before_sk).
# The issue's waveq command, the paper and llm sets against dp and cuBLAS (fp16), waveq in bf16.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
timeout 150 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
tail -6 $o/waveq-issue-command.txt
timeout 330 $g/run streamk-bench --set paper,llm --count 150 --seed 1 --dtype fp16 \
  --modes auto,dp,cublas --warmup 3 --reps 9 --inner 5 \
  --csv $o/bench-fp16.csv > $o/bench-fp16.txt 2>/dev/null
tail -8 $o/bench-fp16.txt
timeout 100 $g/run streamk-bench --set waveq --dtype bf16 --modes auto,dp,splitk,cublas > $o/waveq-bf16.txt 2>/dev/null
tail -6 $o/waveq-bf16.txt
