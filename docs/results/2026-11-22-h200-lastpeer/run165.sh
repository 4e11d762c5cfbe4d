#!/usr/bin/env bash
# Session 30, run 165: the last-peer reduction (Reduction::kLastPeer: every peer stores its
# partial, the last to arrive sums them in k order and finishes the tile; no waits, no reduction
# blocks), forced, before the planner weighs it. Every GPU test (it runs in every reduction loop);
# then, from CUDA graphs (fp16), split-K with 3, 4, 8 and 16 splits reduced each way on the decode
# rows and the few-tile deep-K shapes of session 21, in two alternating passes; traces of
# 16 x 4096 x 4096 both ways; the waveq set's Stream-K plans each way, back to back.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-22-h200-separate
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 420 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
m=auto,splitk:3,splitk:3@last-peer,splitk:4@separate,splitk:4@last-peer,splitk:8@separate,splitk:8@last-peer,splitk:16@separate,splitk:16@last-peer,cublas
for pass in 1 2; do
  for s in decode separate; do
    timeout 150 $g/run streamk-bench --shapes $d/$s-shapes.txt --dtype fp16 --graph --modes $m \
      --warmup 3 --reps 15 --inner 5 --csv $o/graph-$s-$pass.csv > $o/graph-$s-$pass.txt 2> $o/graph-$s-$pass.err
    echo "$s pass $pass exit $? errors $(grep -c ERROR $o/graph-$s-$pass.txt)"
  done
done
for r in separate last-peer; do
  timeout 60 $g/run streamk-trace 4096 16 4096 --mode splitk --splits 4 --reduction $r > $o/trace-dec-$r.txt 2>&1
  timeout 60 $g/run streamk-trace 4096 128 4096 --mode splitk --splits 4 --reduction $r > $o/trace-dec128-$r.txt 2>&1
done
grep -h -E "^span|per piece|graph" $o/trace-*.txt
timeout 150 $g/run streamk-bench --set waveq --modes auto,streamk,streamk@last-peer,streamk@separate,dp \
  --reps 9 --csv $o/waveq-sk.csv > $o/waveq-sk.txt 2> $o/waveq-sk.err
echo "waveq exit $?"; sed -n '/# summary/,$p' $o/waveq-sk.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
