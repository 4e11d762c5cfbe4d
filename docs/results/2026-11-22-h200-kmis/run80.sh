#!/usr/bin/env bash
# Session 17, run 80: after QueryLocalDevice keeps the memory's terms. The device-spec test; the
# K-misaligned pairs with repacking auto; the paper set in fp16 and bf16 with repacking off and
# forced on (the per-shape effect of the copies, to judge the planner's rule).
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
$g/run streamk_gpu_tests --gtest_filter='GemmGpu.KernelOccupancy*' 2>&1 | grep -E "device|OK|FAILED|Failure" | head
timeout 90 $g/run streamk-bench --shapes $g/kmis-pairs.txt --modes auto,dp,cublas --reps 31 --csv $o/pairs-auto.csv > $o/pairs-auto.txt 2>/dev/null
echo "pairs auto rc $?"
for d in fp16 bf16; do
  for r in off on; do
    timeout 150 $g/run streamk-bench --set paper --dtype $d --modes auto,dp,cublas --reps 31 --repack $r --csv $o/paper-$d-$r.csv > $o/paper-$d-$r.txt 2>/dev/null
    echo "paper $d $r rc $?"; sed -n '/# summary/,$p' $o/paper-$d-$r.txt | tail -2
  done
done
cd $o && tar czf csv.tgz *.csv && rm *.csv && ls
