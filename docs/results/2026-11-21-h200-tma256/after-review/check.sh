#!/usr/bin/env bash
# After the review commit (tile comparison, ComputesTile, MakePlan's fallback): every GPU test,
# and the issue's waveq command against cuBLAS in the same call.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
bash $g/gpu_check.sh $g $o > $o/check.txt 2>&1; echo "gpu_check exit $?"; tail -7 $o/check.txt
{ echo "# streamk-bench --set waveq --modes auto,dp,splitk,cublas"
  timeout 120 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas 2>&1; } > $o/waveq-issue-command.txt
grep -E "^waveq +(dp|splitk|cublas) " $o/waveq-issue-command.txt
timeout 60 $g/run streamk-demo 4096 4096 4096 > $o/demo.log 2>&1; tail -4 $o/demo.log
