#!/usr/bin/env bash
# Session 28, run 158: is the 8% margin too wide for aligned LLM projections? 7b.up.m2048 ran
# all-tiles Stream-K 1.09-1.10x faster than dp in runs 147 and 152, predicted 1.05x. On the
# shapes of llm-sk-candidates.txt (eight predicted 1.03-1.05x, four controls predicted 1.01-1.02x):
# HEAD 11c9a66's auto, dp, streamk (all tiles), dp on 192 x 192 and cuBLAS (base), against an
# experimental build whose kMinPredictedGain is 2.5% (exp/: its auto runs the planner's Stream-K
# hybrid on the eight), in alternating passes base/exp three times.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/exp.tar.xz
g=$(pwd)/gpu; ge=$(pwd)/exp; export LD_LIBRARY_PATH=$g/lib
f=docs/results/2026-11-22-h200-fp32d/llm-sk-candidates.txt
for pass in 1 2 3; do
  for dt in fp16 bf16; do
    timeout 80 $g/run streamk-bench --shapes $f --dtype $dt \
      --modes auto,dp,streamk,dp/192x192x64,cublas --warmup 3 --reps 15 --inner 5 \
      --csv $o/base-$dt-$pass.csv > $o/base-$dt-$pass.txt 2> /dev/null
    echo "base $dt $pass exit $?"
    LD_LIBRARY_PATH=$ge/lib timeout 60 $ge/run streamk-bench --shapes $f --dtype $dt --modes auto,dp \
      --warmup 3 --reps 15 --inner 5 --csv $o/exp-$dt-$pass.csv > $o/exp-$dt-$pass.txt 2> /dev/null
    echo "exp $dt $pass exit $?"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
