#!/usr/bin/env bash
# Session 10, run 33: the final build after the review (PredictMicros restructured with identical
# predictions; streamk-bench's argument layout moved to BenchGemmArgs): every GPU test, the issue's
# waveq command against cuBLAS, and two --shape flags in one call.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "gpu_check exit $?"; tail -4 $o/check.txt
tar czf $o/check.tgz -C $o check && rm -rf $o/check
timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command: $(grep -E '^waveq +(dp|cublas) ' $o/waveq-issue-command.txt)"
timeout 60 $g/run streamk-bench --shape 2880x3064x7752 --shape 696x6688x5096 --modes auto,dp,cublas > $o/two-shapes.txt 2>/dev/null
grep -E "^cli " $o/two-shapes.txt | cut -c1-130
