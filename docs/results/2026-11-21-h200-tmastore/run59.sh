#!/usr/bin/env bash
# Session 14, run 59: the review commit that encodes every TMA map (A, B, C, D) through one
# EncodeTensor16 (host code in kernels/launch.cu). Every GPU test, the beta traces and the issue's
# command against cuBLAS. Run from the directory holding gpu/ (the bundle).
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -8
for beta in 0 1; do
  echo "=== streamk-trace 2944 3072 1024 --mode dp --beta $beta" >> $o/trace.txt
  timeout 30 $g/run streamk-trace 2944 3072 1024 --mode dp --beta $beta >> $o/trace.txt 2>&1
done
grep -E "^===|^checked|^untraced" $o/trace.txt
timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
cd $o && tar czf check.tgz check && rm -rf check
