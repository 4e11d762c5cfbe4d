#!/usr/bin/env bash
# Session 21, run 112: the sanitizers on the final build (d58ab22): memcheck and racecheck on the
# edge-partials test (split-K partial stores and separate reductions that skip fragments outside
# D, every kernel configuration and reduction), memcheck, racecheck and synccheck on the small
# shapes of every mode.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH="$g/lib"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
t=$g/streamk_gpu_tests
echo "sanitizer $cs, tests $t"
for tool in memcheck racecheck; do
  timeout 240 $cs --tool $tool --error-exitcode 9 $t --gtest_filter='GemmGpu.Edge*' > $o/$tool-edge.log 2>&1
  echo "$tool edge exit $?"; grep -E "ERROR SUMMARY|PASSED|FAILED" $o/$tool-edge.log | head -3
done
for tool in memcheck racecheck synccheck; do
  timeout 120 $cs --tool $tool --error-exitcode 9 $t --gtest_filter='GemmGpu.SmallShapesEveryMode' > $o/$tool-small.log 2>&1
  echo "$tool small exit $?"; grep -E "ERROR SUMMARY|PASSED|FAILED" $o/$tool-small.log | head -3
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
