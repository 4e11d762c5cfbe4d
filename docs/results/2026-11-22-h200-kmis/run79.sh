#!/usr/bin/env bash
# Session 17, run 79: operand repacking (Plan::repack_a / repack_b). Every GPU test; then the
# K-misaligned pairs with repacking off, auto and on (dp and auto against cuBLAS); then the paper
# set (fp16) with repacking off and auto, in one call.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
timeout 240 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -8
for r in off on auto; do
  timeout 90 $g/run streamk-bench --shapes $g/kmis-pairs.txt --modes auto,dp,cublas --reps 31 --repack $r --csv $o/pairs-$r.csv > $o/pairs-$r.txt 2>/dev/null
  echo "pairs $r rc $?"
done
for r in off auto; do
  timeout 150 $g/run streamk-bench --set paper --modes auto,dp,cublas --reps 31 --repack $r --csv $o/paper-$r.csv > $o/paper-$r.txt 2>/dev/null
  echo "paper $r rc $?"; sed -n '/# summary/,$p' $o/paper-$r.txt
done
cd $o && tar czf check.tgz check && rm -rf check && tar czf csv.tgz *.csv && rm *.csv && ls
