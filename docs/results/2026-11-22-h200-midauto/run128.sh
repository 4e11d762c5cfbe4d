#!/usr/bin/env bash
# Session 24, run 128: the committed planner (the 128 x 192 tile for data-parallel plans where
# predicted 8% under the other tiles' pick, clusters weighed first for misaligned rows).
# (1) Every GPU test. (2) The full benchmark in both dtypes (scripts/gpu_bench.sh). (3) HEAD
# 0db1490's auto and dp (gpu-head/) on the same sets and settings, each dtype right after this
# build's. (4) The issue's waveq command.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/head.tar.xz
g=$(pwd)/gpu; gh=$(pwd)/gpu-head; export LD_LIBRARY_PATH=$g/lib
timeout 240 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "PASSED|FAILED|exit" $o/check/gpu_tests.log | head -30
for d in fp16 bf16; do
  timeout 140 bash scripts/gpu_bench.sh $g $o $d; echo "bench $d exit $?"
  LD_LIBRARY_PATH=$gh/lib timeout 70 $gh/run streamk-bench --set paper,waveq,llm --count 150 --seed 1 \
    --dtype $d --modes auto,dp --warmup 3 --reps 31 --inner 5 --csv $o/head-$d.csv > $o/head-$d.txt 2> /dev/null
  echo "head $d exit $?"; sed -n '/# summary/,$p' $o/head-$d.txt
done
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2> /dev/null
echo "waveq command exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
