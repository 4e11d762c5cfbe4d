#!/usr/bin/env bash
# Session 36, run 198: an fp32 D that the TMA unit cannot store as a tensor (rows not 16-byte
# aligned, or n not a multiple of 4), with beta 0, written like a 16-bit one: rows staged at
# their offsets within 16 bytes, a bulk copy per row and the ends by StoreEnd, in two rounds of
# half the tile's columns, issued by the compute warps (Epilogue::RunRows). Before: the epilogue's
# own stores (Epilogue::Run; element by element where rows are unaligned). Every GPU test; then
# three rounds alternating before (c1118bc's streamk-trace, bundled as streamk-trace-before) and
# after: streamk-trace's untraced time (and aligned shapes, whose code did not change but whose
# kernels now spill 16 bytes more); then session 33's unaligned shapes with fp32 D, packed and
# padded, against cuBLAS.
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
              "512 50257 768 --ldd 50257" "4096 4096 4096" "4096 4096 4096 --out_dtype fp32" \
              "2048 11008 4096"; do
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
cd $OUT && tar czf all.tgz r && rm -rf r && ls
