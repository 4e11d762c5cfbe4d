#!/usr/bin/env bash
# Session 20, run 100: after the shared-memory attribute is set once per device (commit after
# 8b98cb0): every GPU test, gemm()'s host cost again (probe/host_cost_gemm.cc against the new
# library), streamk-trace's host line, and the issue's waveq command. Run from the repository
# root with gpu-b/ carried.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH="$g/lib"
timeout 240 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -12
$g/run host_cost_gemm | tee $o/host_cost_gemm.txt
for s in "128 128 64" "2816 1536 1024 --mode dp"; do $g/run streamk-trace $s | grep -E "^untraced|^host"; done | tee $o/trace-host.txt
$g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2> $o/waveq-issue-command.err
echo "waveq command exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
cd $o && tar czf misc.tgz check check.txt && rm -rf check check.txt && cd $OUT && tar czf all.tgz r && rm -rf r && ls
