#!/usr/bin/env bash
# Session 19, run 96: after the review commits (f988125, 8faadbc, 05e480c; host code only), every
# GPU test, the planner on the GPU (QueryLocalDevice) for the shapes auto moved to clusters, and
# the full benchmark in fp16. Run from the directory holding gpu/.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
timeout 240 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -9
for s in "4096 4096 4104" "6176 3312 520" "3320 5200 1160"; do $g/run streamk-plan $s | grep -E "^device|^reason"; done > $o/plan.txt 2>&1
cat $o/plan.txt
timeout 150 bash $g/gpu_bench.sh $g $o fp16; echo "bench fp16 exit $?"
cd $o && tar czf misc.tgz check check.txt bench-fp16.csv bench-fp16.json bench-fp16.err && rm -rf check check.txt bench-fp16.csv bench-fp16.json bench-fp16.err && ls
