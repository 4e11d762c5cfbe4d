#!/usr/bin/env bash
# Session 9, run 29: after the review (plan printout and test helpers; kernel code as in run 27).
# Every GPU test, then the issue's waveq command against cuBLAS.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "gpu_check exit $?"; tail -7 $o/check.txt
tar czf $o/check.tgz -C $o check && rm -rf $o/check
timeout 150 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
tail -6 $o/waveq-issue-command.txt
