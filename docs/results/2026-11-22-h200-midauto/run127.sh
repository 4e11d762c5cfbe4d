#!/usr/bin/env bash
# Session 24, run 127: auto weighs the 128 x 192 tile for data-parallel plans, with constants of
# its own (fitted on run 125 relative to the 128 x 256 model; taken where predicted 5% under the
# other tiles' data-parallel pick). (1) Every GPU test. (2) The paper, waveq and llm sets, fp16:
# this build's auto, dp and cuBLAS against HEAD 0db1490's auto and dp (gpu-head/), back to back.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/head.tar.xz
g=$(pwd)/gpu; gh=$(pwd)/gpu-head; export LD_LIBRARY_PATH=$g/lib
timeout 300 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "PASSED|FAILED|exit" $o/check/gpu_tests.log | head -30
for b in new head; do
  bb=$g m=auto,dp,cublas; [ $b = head ] && bb=$gh m=auto,dp
  LD_LIBRARY_PATH=$bb/lib timeout 150 $bb/run streamk-bench --set waveq,paper,llm --count 150 --seed 1 \
    --dtype fp16 --modes $m --warmup 3 --reps 15 --inner 5 --csv $o/ab-$b.csv > $o/ab-$b.txt 2> /dev/null
  echo "ab $b exit $?"; sed -n '/# summary/,$p' $o/ab-$b.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
