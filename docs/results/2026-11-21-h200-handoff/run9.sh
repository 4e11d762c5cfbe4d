#!/usr/bin/env bash
# Session 6, run 9: the producer lane signals published partials and prefetches the partials a
# unit takes into L2. GPU tests (TMA kernel chunks), traces, the issue's waveq command and the
# calibration shapes (for the cost-model refit). Everything lands in $OUT/r.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
start=$(date +%s)
for filter in 'WorkMappingDevice*:Mainloop*' 'GemmGpu.Kernel*:GemmGpu.Small*:GemmGpu.Every*' \
              'GemmGpu.Output*:GemmGpu.Single*:GemmGpu.Thousands*:GemmGpu.Batched*:GemmGpu.Forced*' \
              'GemmGpu.Deterministic*:GemmGpu.CudaGraph*:GemmGpu.TwoStreams*:GemmGpu.RunsWhile*:GemmGpu.Trace*:GemmGpu.Hopper*'; do
  timeout 150 $g/run streamk_gpu_tests --gtest_filter="$filter" >> $o/gpu_tests.log 2>&1
  echo "chunk '$filter': exit $?" | tee -a $o/gpu_tests.log
done
grep -E "PASSED|FAILED" $o/gpu_tests.log | head
for s in "1536 3072 4096" "1536 3072 4096 --mode dp" "2560 5120 4096" "1536 3072 1024 --mode streamk" "1536 3072 1024 --mode dp"; do
  echo "=== streamk-trace $s" >> $o/trace.txt; timeout 30 $g/run streamk-trace $s >> $o/trace.txt 2>&1
done
grep -E "^===|untraced|per block" $o/trace.txt
$g/run streamk-trace 1536 3072 4096 --csv $o/trace-1536x3072x4096-streamk.csv > /dev/null 2>&1
{ echo "# streamk-bench --set waveq --modes auto,dp,splitk,streamk,cublas"
  timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,splitk,streamk,cublas --csv $o/waveq.csv 2>&1; } > $o/waveq.txt
grep -E "^waveq +(dp|splitk|streamk|cublas) " $o/waveq.txt
timeout 90 $g/run streamk-bench --shapes $g/calibration.txt --modes auto,dp,splitk,streamk,cublas --warmup 3 --reps 9 --inner 5 --csv $o/calib.csv > $o/calib.txt 2>/dev/null; echo "calib exit $?"
echo "total $(( $(date +%s) - start )) s"
