#!/usr/bin/env bash
# Session 17, run 84: the review commit (QueryLocalDevice re-applies the memory's terms through
# WithMemoryTerms; the repack launch takes the plan's SM count; host code, no behaviour change
# intended): every GPU test, the K-misaligned pairs (auto must still repack 4096 and 8192) and
# the issue's waveq command against cuBLAS.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
timeout 240 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -8
timeout 90 $g/run streamk-bench --shapes $g/kmis-pairs.txt --modes auto,dp,cublas --reps 31 > $o/pairs-auto.txt 2>/dev/null
echo "pairs rc $?"; grep -v "^#" $o/pairs-auto.txt | head -16
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
cd $o && tar czf check.tgz check && rm -rf check && ls
