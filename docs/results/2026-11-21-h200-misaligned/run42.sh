#!/usr/bin/env bash
# Session 12, run 42: after the review commits (kFastRowBytes shared by gemm() and streamk-plan;
# no behaviour change). Every GPU test, and the issue's waveq command.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "gpu_check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check.txt
tar czf $o/check.tgz -C $o check && rm -rf $o/check
timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
