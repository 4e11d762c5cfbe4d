#!/usr/bin/env bash
# Session 42, run 235: GemmGpu.RandomProblemsMatchTheReference after its large draws took K-major
# layouts (run 234 ran 3 ping-pong plans in 1500 draws): the default 1500 draws once on each
# mainloop, then the whole scripts/gpu_check.sh (its chunks must stay under their timeout), timed.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
for ml in tma sm90-cpasync sm80; do
  start=$(date +%s)
  if [[ $ml == tma ]]; then unset STREAMK_MAINLOOP; else export STREAMK_MAINLOOP=$ml; fi
  timeout 90 $g/run streamk_gpu_tests --gtest_filter='GemmGpu.Random*:GemmGpu.Hopper*' \
    > $o/random-$ml.log 2>&1
  echo "$ml exit $? in $(( $(date +%s) - start )) s" | tee -a $o/summary.txt
done
unset STREAMK_MAINLOOP
start=$(date +%s)
GPU_TEST_TIMEOUT=240 timeout 420 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? in $(( $(date +%s) - start )) s" | tee -a $o/summary.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
