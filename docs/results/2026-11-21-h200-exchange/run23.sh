#!/usr/bin/env bash
# Session 8, run 23: the faster take and the cost model with a block alone on its SM as slow per
# iteration as in a busy round (iter_us = iter_busy_us). The GPU tests, then the three sets in fp16
# against dp and cuBLAS, then the issue's waveq command.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "gpu_check exit $?"; tail -7 $o/check.txt
tar czf $o/check.tgz -C $o check && rm -rf $o/check  # the lent machine returns at most 8 files
timeout 300 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
tail -6 $o/waveq-issue-command.txt
timeout 420 $g/run streamk-bench --set paper,llm --count 150 --seed 1 --dtype fp16 \
  --modes auto,dp,cublas --warmup 3 --reps 9 --inner 5 \
  --csv $o/bench-fp16.csv > $o/bench-fp16.txt 2>/dev/null
tail -8 $o/bench-fp16.txt
