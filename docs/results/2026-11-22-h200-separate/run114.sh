#!/usr/bin/env bash
# Session 21, run 114: after the review commit that gives the fixup one definition of which
# fragments hold elements of D (Fixup::Holds; kernel code, same register use): every GPU test,
# and the decode and few-tile shapes with auto, dp and cuBLAS back to back.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH="$g/lib"
d=docs/results/2026-11-22-h200-separate
timeout 300 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -12
for s in separate decode; do
  $g/run streamk-bench --shapes $d/$s-shapes.txt --dtype fp16 --modes auto,dp,cublas \
    --warmup 3 --reps 31 --inner 5 --csv $o/$s.csv > $o/$s.txt 2> /dev/null
  echo "$s exit $?"; sed -n '/# summary/,$p' $o/$s.txt
done
cd $o && tar czf misc.tgz check check.txt && rm -rf check check.txt && cd $OUT && tar czf all.tgz r && rm -rf r && ls
