#!/usr/bin/env bash
# Session 15, run 63: the review commit (CostOfTile, EventCount; host code only). Every GPU test,
# a trace (the pooled clock) and the issue's command against cuBLAS. Run from the directory
# holding gpu/ (the bundle).
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -8
timeout 30 $g/run streamk-trace 2432 1792 1024 --mode dp > $o/trace.txt 2>&1
grep -E "^untraced|^host|^span|SM clock" $o/trace.txt
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
cd $o && tar czf check.tgz check && rm -rf check
