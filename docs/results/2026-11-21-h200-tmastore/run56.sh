#!/usr/bin/env bash
# Session 14, run 56: every GPU test, then the full benchmark (scripts/gpu_bench.sh) in fp16 and bf16 and the issue's
# waveq command twice, on the final build of the session (99c3766: C loaded by TMA too), for performance.md.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
timeout 300 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | tail -14
timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
for dt in fp16 bf16; do timeout 250 bash $g/gpu_bench.sh $g $o $dt; echo "bench $dt exit $?"; done
timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command-2.txt 2>/dev/null
echo "issue command (again) rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command-2.txt
cd $o && tar czf csv.tgz bench-*.csv bench-*.json bench-*.err && rm -f bench-*.csv bench-*.json bench-*.err && tar czf check.tgz check gpu.txt check.txt && rm -rf check gpu.txt check.txt
