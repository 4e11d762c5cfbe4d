#!/usr/bin/env bash
# Session 25, run 139: the final build (the fourth tile over a Stream-K pick without a margin).
# (1) Every GPU test. (2) The full benchmark in both dtypes (scripts/gpu_bench.sh). (3) The
# issue's waveq command.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
timeout 280 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "PASSED|FAILED|exit" $o/check/gpu_tests.log | head -30
for d in fp16 bf16; do timeout 150 bash scripts/gpu_bench.sh $g $o $d; echo "bench $d exit $?"; done
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2> /dev/null
echo "waveq command exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $o/gpu.txt 2>&1
cd $OUT && tar czf all.tgz r && rm -rf r && ls
