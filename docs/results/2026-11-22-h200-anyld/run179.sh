#!/usr/bin/env bash
# Session 33, run 179: after the review commit (one row-alignment helper in gemm()'s Lower, one
# flag parser in streamk-plan; no behaviour change). Every GPU test, the unaligned shapes packed
# and padded (with cuBLAS), then the llm set back to back.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-22-h200-anyld
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 420 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
for dt in fp16 bf16; do
  for pack in packed padded; do
    flag=""; [[ $pack == packed ]] && flag="--packed"
    timeout 100 $g/run streamk-bench --shapes $d/unaligned-shapes.txt $flag --dtype $dt \
      --modes auto,dp,cublas --warmup 3 --reps 15 --inner 5 --csv $o/$pack-$dt.csv \
      > $o/$pack-$dt.txt 2> $o/$pack-$dt.err
    echo "$pack $dt exit $?"
  done
done
timeout 100 $g/run streamk-plan 4096 4096 4097 > $o/plan-k4097.txt 2>&1
timeout 150 $g/run streamk-bench --set llm --modes auto,dp,cublas > $o/llm.txt 2> $o/llm.err
echo "llm exit $?"; sed -n "/# summary/,\$p" $o/llm.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
