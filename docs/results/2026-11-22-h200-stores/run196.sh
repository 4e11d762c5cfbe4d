#!/usr/bin/env bash
# Session 36, run 196: the copying warps store a 16-bit D's rows from the stage themselves
# (Epilogue::StoreRows: the producer warp group's three idle warps, a row per warp at a time,
# 16-byte loads and stores, the ends by StoreEnd) instead of one copying warp handing bulk copies
# to the TMA unit, against the build before (c1118bc's streamk-trace, bundled as
# streamk-trace-before). The GPU tests of D's rows; then three rounds alternating before and
# after: streamk-trace's untraced time, fp16, with the launch's pick and with the copying warp(s)
# forced (STREAMK_ROW_COPIES=warp).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
f='GemmGpu.RowCopies*:GemmGpu.AnyLeading*:GemmGpu.Epilogue*'
timeout 240 $g/run streamk_gpu_tests --gtest_filter="$f" > $o/tests.log 2>&1
echo "tests exit $?"; grep -E "PASSED|FAILED|OK \]" $o/tests.log | head
for round in 1 2 3; do
  for build in before after; do
    sfx=""; [[ $build == before ]] && sfx="-before"
    for sh in "4096 50257 768 --ldd 50257" "4096 50257 768 --ldd 50264" \
              "512 50257 768 --ldd 50257" "512 50257 768 --ldd 50264" "512 50304 768" \
              "1023 1023 1023 --ldd 1023" "11008 7 4096 --ldd 7"; do
      echo "=== $build $round $sh"
      timeout 60 $g/run streamk-trace$sfx $sh 2>&1 | grep -E "checked|untraced|per block|pieces"
      echo "=== $build-warp $round $sh"
      STREAMK_ROW_COPIES=warp timeout 60 $g/run streamk-trace$sfx $sh 2>&1 |
        grep -E "checked|untraced|per block|pieces"
    done >> $o/traces.txt
  done
done
grep -E "===|untraced" $o/traces.txt | paste - - | awk '{print $2, $3, $4, $5, $6, $7, $8, $10}'
cd $OUT && tar czf all.tgz r && rm -rf r && ls
