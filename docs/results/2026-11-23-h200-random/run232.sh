#!/usr/bin/env bash
# Session 42, run 232: GemmGpu.RandomProblemsMatchTheReference, its first runs: 1500 random
# draws (the default) on each mainloop (TMA, cp.async wgmma, mma.sync), each
# run on its own seed (the TMA mainloop three times, the others twice), timed.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
i=0
for ml in tma sm90-cpasync sm80 tma tma sm90-cpasync sm80; do
  i=$((i + 1))
  start=$(date +%s)
  if [[ $ml == tma ]]; then unset STREAMK_MAINLOOP; else export STREAMK_MAINLOOP=$ml; fi
  timeout 170 $g/run streamk_gpu_tests --gtest_filter='GemmGpu.Random*:GemmGpu.Hopper*' \
    > $o/random-$i-$ml.log 2>&1
  echo "$i $ml exit $? in $(( $(date +%s) - start )) s" | tee -a $o/summary.txt
done
unset STREAMK_MAINLOOP
cd $OUT && tar czf all.tgz r && rm -rf r && ls
