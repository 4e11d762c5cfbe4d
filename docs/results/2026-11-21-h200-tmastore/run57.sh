#!/usr/bin/env bash
# Session 14, run 57: the review commit (the C barrier's re-init folded into
# Epilogue::AwaitStoreReads, comments). Every GPU test, the beta traces again, the issue's command.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
timeout 300 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | tail -14
for args in "2944 3072 1024 --mode dp" "12288 2048 4096"; do
  for beta in 0 1; do
    echo "=== streamk-trace $args --beta $beta" >> $o/trace.txt
    timeout 30 $g/run streamk-trace $args --beta $beta >> $o/trace.txt 2>&1
  done
done
grep -E "^===|^checked|^untraced|^per block" $o/trace.txt
timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
cd $o && tar czf check.tgz check && rm -rf check
