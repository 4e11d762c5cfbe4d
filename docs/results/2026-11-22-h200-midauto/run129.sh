#!/usr/bin/env bash
# Session 24, run 129: the committed planner (the 128 x 192 tile for data-parallel plans where
# predicted 8% under the other tiles' data-parallel pick and, against their Stream-K pick, 5%
# under it; clusters weighed first for misaligned rows). (1) Every GPU test. (2) The full
# benchmark in both dtypes (scripts/gpu_bench.sh). (3) A/B against HEAD 0db1490 (gpu-head/) with
# the same modes (auto,dp), fp16, head/new/head/new. (4) The issue's waveq command.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/head.tar.xz
g=$(pwd)/gpu; gh=$(pwd)/gpu-head; export LD_LIBRARY_PATH=$g/lib
timeout 240 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "PASSED|FAILED|exit" $o/check/gpu_tests.log | head -30
for d in fp16 bf16; do timeout 140 bash scripts/gpu_bench.sh $g $o $d; echo "bench $d exit $?"; done
for pass in 1 2; do
  for b in head new; do
    bb=$g; [ $b = head ] && bb=$gh
    LD_LIBRARY_PATH=$bb/lib timeout 60 $bb/run streamk-bench --set paper,waveq,llm --count 150 --seed 1 \
      --dtype fp16 --modes auto,dp --warmup 3 --reps 15 --inner 5 --csv $o/ab-$b-$pass.csv > $o/ab-$b-$pass.txt 2> /dev/null
    echo "ab $b $pass exit $?"
  done
done
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2> /dev/null
echo "waveq command exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
