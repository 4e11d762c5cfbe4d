#!/usr/bin/env bash
# Session 5, call 1: the 128x256 TMA kernel alone (before the planner could pick 128x128 per
# shape): correctness, then calibration/waveq timings (calib-waveq.txt: the data the 128x256 cost
# constants were fitted to; its waveq shapes predate the fix of their m/n orientation, so their
# tile counts differ from their names) and traces. bench-fp16.txt: `run8.sh 1` on that build
# (call 2).
set -uo pipefail
b=gpu; o=$OUT
for filter in 'Mainloop*' 'GemmGpu.Kernel*:GemmGpu.Small*:GemmGpu.Every*' \
  'GemmGpu.Output*:GemmGpu.Single*:GemmGpu.Thousands*:GemmGpu.Batched*:GemmGpu.Forced*:GemmGpu.Deterministic*:GemmGpu.Hopper*'; do
  timeout 150 $b/run streamk_gpu_tests --gtest_filter="$filter" >> $o/gpu_tests.log 2>&1
done
STREAMK_MAINLOOP=sm90-cpasync timeout 100 $b/run streamk_gpu_tests --gtest_filter='GemmGpu.Every*:GemmGpu.Hopper*' > $o/cpasync.log 2>&1
timeout 60 $b/run streamk-demo 4096 4096 4096 > $o/demo.log 2>&1
timeout 60 $b/run streamk-trace 1408 3072 4096 --mode dp > $o/trace.txt 2>&1
timeout 60 $b/run streamk-trace 1536 3072 4096 >> $o/trace.txt 2>&1
timeout 60 $b/run streamk-trace 1536 3072 4096 --mode dp >> $o/trace.txt 2>&1
timeout 200 $b/run streamk-bench --shapes $b/calibration.txt --set waveq --modes auto,dp,streamk,cublas --warmup 3 --reps 5 --inner 5 --csv $o/calib.csv > $o/calib.txt 2> $o/calib.err
