#!/usr/bin/env bash
# Session 20, run 105: every GPU test on the final build (after the review commits 8606c6b and
# 7a46494, host code only, and 9ed3a32, a kernel comment), and the issue's waveq command.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH="$g/lib"
timeout 240 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -12
$g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2> /dev/null
echo "waveq command exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
cd $o && tar czf misc.tgz check check.txt && rm -rf check check.txt && cd $OUT && tar czf all.tgz r && rm -rf r
