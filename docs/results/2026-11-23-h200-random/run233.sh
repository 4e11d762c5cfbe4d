#!/usr/bin/env bash
# Session 42, run 233: every GPU test (scripts/gpu_check.sh, all three mainloops, with
# GemmGpu.RandomProblemsMatchTheReference in a chunk of its own and in the two other mainloops'
# lists), then the random test with 5000 draws on each mainloop, each on its own seed.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
start=$(date +%s)
GPU_TEST_TIMEOUT=240 timeout 420 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? in $(( $(date +%s) - start )) s" | tee -a $o/summary.txt
for ml in tma sm90-cpasync sm80; do
  start=$(date +%s)
  if [[ $ml == tma ]]; then unset STREAMK_MAINLOOP; else export STREAMK_MAINLOOP=$ml; fi
  STREAMK_TEST_DRAWS=5000 timeout 50 $g/run streamk_gpu_tests \
    --gtest_filter='GemmGpu.Random*:GemmGpu.Hopper*' > $o/random-5000-$ml.log 2>&1
  echo "$ml exit $? in $(( $(date +%s) - start )) s" | tee -a $o/summary.txt
done
unset STREAMK_MAINLOOP
cd $OUT && tar czf all.tgz r && rm -rf r && ls
