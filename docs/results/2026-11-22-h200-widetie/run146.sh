#!/usr/bin/env bash
# Session 27, run 146: the fourth tile takes Stream-K picks it is predicted within 3% of
# (kMinWideOverStreamKGain = -0.03), each extra tile weighed against its own margin.
# (1) Every GPU test. (2) wide-tie-shapes.txt, fp16, this build's auto against fce8f71's (base/),
# base/new three times. (3) The issue's command, twice.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; mkdir -p base && tar xJf gpu-b/old.tar.xz -C base
g=$(pwd)/gpu; gb=$(pwd)/base/gpu; export LD_LIBRARY_PATH=$g/lib
timeout 240 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "PASSED|FAILED|exit" $o/check/gpu_tests.log | head -30
s=docs/results/2026-11-22-h200-widetie/wide-tie-shapes.txt
for pass in 1 2 3; do
  for b in base new; do
    bb=$g; [ $b = base ] && bb=$gb
    LD_LIBRARY_PATH=$bb/lib timeout 40 $bb/run streamk-bench --shapes $s --dtype fp16 --warmup 3 \
      --reps 15 --inner 5 --modes auto,dp,dp/192x192x64,cublas --csv $o/ab-$b-$pass.csv > $o/ab-$b-$pass.txt 2> /dev/null
    echo "ab $b $pass exit $?"
  done
done
for pass in 1 2; do
  timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command-$pass.txt 2> /dev/null
  echo "waveq command exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command-$pass.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
