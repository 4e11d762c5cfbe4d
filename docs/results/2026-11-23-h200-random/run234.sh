#!/usr/bin/env bash
# Session 42, run 234: GemmGpu.RandomProblemsMatchTheReference after one draw in ten became a
# large packed problem of 8-24 k-iterations (ping-pong's plans): the default 1500 draws twice on
# each mainloop, each on its own seed, timed.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
i=0
for ml in tma sm90-cpasync sm80 tma sm90-cpasync sm80; do
  i=$((i + 1))
  start=$(date +%s)
  if [[ $ml == tma ]]; then unset STREAMK_MAINLOOP; else export STREAMK_MAINLOOP=$ml; fi
  timeout 90 $g/run streamk_gpu_tests --gtest_filter='GemmGpu.Random*:GemmGpu.Hopper*' \
    > $o/random-$i-$ml.log 2>&1
  echo "$i $ml exit $? in $(( $(date +%s) - start )) s" | tee -a $o/summary.txt
done
unset STREAMK_MAINLOOP
cd $OUT && tar czf all.tgz r && rm -rf r && ls
