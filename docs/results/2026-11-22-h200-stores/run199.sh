#!/usr/bin/env bash
# Session 36, run 199: the final kernel. fp32 D's rows by bulk copies only where they are not
# 16-byte aligned (RowsOf, kernels/tma_operands.h; run 198 gave them aligned rows too, where they
# ran 7% slower than Run's 16-byte stores). Every GPU test (streamk-plan not bundled: the bundle
# and the repository must fit the 64 MiB a call carries); three rounds alternating before
# (c1118bc's streamk-trace, bundled as streamk-trace-before) and after, streamk-trace's untraced
# time; session 33's unaligned shapes with fp32 D, packed and padded, against cuBLAS; the llm set.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
s=docs/results/2026-11-22-h200-anyld/unaligned-shapes.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 500 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
for round in 1 2 3; do
  for build in before after; do
    sfx=""; [[ $build == before ]] && sfx="-before"
    for sh in "4096 50257 768 --ldd 50257 --out_dtype fp32" \
              "4096 50257 768 --ldd 50260 --out_dtype fp32" \
              "512 50257 768 --ldd 50257 --out_dtype fp32" \
              "512 50257 768 --ldd 50260 --out_dtype fp32" "512 50304 768 --out_dtype fp32" \
              "1023 1023 1023 --ldd 1023 --out_dtype fp32" "11008 7 4096 --ldd 7 --out_dtype fp32" \
              "4096 50257 768 --ldd 50257" "512 50257 768 --ldd 50257"; do
      echo "=== $build $round $sh"
      timeout 60 $g/run streamk-trace$sfx $sh 2>&1 | grep -E "checked|untraced|per block|pieces"
    done >> $o/traces.txt
  done
done
grep -E "===|untraced" $o/traces.txt | paste - - | awk '{print $2, $3, $4, $5, $6, $7, $8, $10, $12}'
for pack in packed padded; do
  flag=""; [[ $pack == packed ]] && flag="--packed"
  timeout 100 $g/run streamk-bench --shapes $s $flag --out-dtype fp32 --modes auto,dp,cublas \
    --warmup 3 --reps 15 --inner 5 --csv $o/$pack-fp32.csv > $o/$pack-fp32.txt 2> $o/$pack-fp32.err
  echo "$pack fp32 exit $?"; sed -n "/# summary/,\$p" $o/$pack-fp32.txt | tail -3
done
timeout 150 $g/run streamk-bench --set llm --modes auto,dp,cublas > $o/llm.txt 2> $o/llm.err
echo "llm exit $?"; sed -n "/# summary/,\$p" $o/llm.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
