#!/usr/bin/env bash
# Session 16, run 74: the review commit (EncodeTensor16 builds its cache key once and encodes from
# it; host code, no behaviour change): every GPU test, the issue's waveq command and the llm set
# against cuBLAS.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
timeout 240 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -8
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
timeout 90 $g/run streamk-bench --set llm --modes auto,dp,cublas --reps 31 > $o/llm.txt 2>/dev/null
echo "llm rc $?"; sed -n '/# summary/,$p' $o/llm.txt
cd $o && tar czf check.tgz check && rm -rf check && ls
