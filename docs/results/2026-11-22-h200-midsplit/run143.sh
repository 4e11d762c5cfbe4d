#!/usr/bin/env bash
# Session 26, run 143: auto weighs copying one of two misaligned operands (the build after run
# 142's measurements). (1) Every GPU test (GemmGpu.RepackedOperandsMatchTheReference now copies
# A alone and B alone too). (2) The misaligned shapes, fp16, this build's auto against acb26d6's
# (base/), base/new/base/new. (3) The issue's command.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; mkdir -p base && tar xJf gpu-b/base.tar.xz -C base
g=$(pwd)/gpu; gb=$(pwd)/base/gpu; export LD_LIBRARY_PATH=$g/lib
timeout 300 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "PASSED|FAILED|exit" $o/check/gpu_tests.log | head -30
s=docs/results/2026-11-22-h200-midsplit/misaligned-shapes.txt
for pass in 1 2; do
  for b in base new; do
    bb=$g; [ $b = base ] && bb=$gb
    LD_LIBRARY_PATH=$bb/lib timeout 100 $bb/run streamk-bench --shapes $s --dtype fp16 --warmup 3 \
      --reps 15 --inner 5 --modes auto,dp,cublas --csv $o/auto-$b-$pass.csv > $o/auto-$b-$pass.txt 2> /dev/null
    echo "auto $b $pass exit $?"
  done
done
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2> /dev/null
echo "waveq command exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
