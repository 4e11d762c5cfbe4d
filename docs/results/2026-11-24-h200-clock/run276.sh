#!/usr/bin/env bash
# Session 51, run 276: the final build (every tile Stream-K over fewer tiles than blocks on
# 128 x 128 needs a 19% predicted gain). Every GPU test (scripts/gpu_check.sh); the prefill grid
# (grid.txt) once more, tn fp16, on whichever lent H200 this is, with the SM clock logged; the
# issue's command.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-clock
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,\
clocks_event_reasons.active --format=csv,nounits -lms 100 > $o/clock.csv 2>&1 &
smi=$!
timeout 170 $g/run streamk-bench --shapes $d/grid.txt --layout tn --rotate \
  --modes auto,dp,cublas --reps 21 --inner 5 --csv $o/grid-tn-fp16-1.csv \
  > $o/grid-tn-fp16-1.txt 2>&1
echo "grid exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/grid-tn-fp16-1.txt
kill $smi
timeout 120 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  --csv $o/waveq-issue-command.csv > $o/waveq-issue-command.txt 2>&1
echo "waveq exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
