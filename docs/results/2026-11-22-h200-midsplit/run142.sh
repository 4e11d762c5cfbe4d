#!/usr/bin/env bash
# Session 26, run 142: copying one operand of two with misaligned rows. The paper set's 74
# K-misaligned shapes and six large ones (misaligned-shapes.txt), fp16: this build's auto (which
# weighs copying A alone, B alone or both) against acb26d6's (base/: both or none) in one call,
# then auto and dp with the copies forced onto A, onto B and onto both (--repack a|b|on), one
# streamk-bench call each, each with cuBLAS.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; mkdir -p base && tar xJf gpu-b/base.tar.xz -C base
g=$(pwd)/gpu; gb=$(pwd)/base/gpu; export LD_LIBRARY_PATH=$g/lib
s=docs/results/2026-11-22-h200-midsplit/misaligned-shapes.txt
common="--shapes $s --dtype fp16 --warmup 3 --reps 15 --inner 5"
for pass in 1 2; do
  for b in base new; do
    bb=$g; [ $b = base ] && bb=$gb
    LD_LIBRARY_PATH=$bb/lib timeout 100 $bb/run streamk-bench $common --modes auto,dp,cublas \
      --csv $o/auto-$b-$pass.csv > $o/auto-$b-$pass.txt 2> /dev/null
    echo "auto $b $pass exit $?"
  done
done
for r in a b on; do
  timeout 100 $g/run streamk-bench $common --modes auto,dp,cublas --repack $r \
    --csv $o/repack-$r.csv > $o/repack-$r.txt 2> /dev/null
  echo "repack $r exit $?"; sed -n '/# summary/,$p' $o/repack-$r.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
