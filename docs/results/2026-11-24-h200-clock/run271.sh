#!/usr/bin/env bash
# Session 51, run 271: the final build (the one-tile hybrid over a tied two-tile; the third tile
# over a few rows of Stream-K). Every GPU test (scripts/gpu_check.sh); then rows271.txt, tn, cold,
# fp16, in two passes, each timing the build before (9b4898c's streamk-bench, bundled as
# streamk-bench-old: auto is the old pick) and this build (auto, the alternatives forced, cuBLAS);
# the SM clock logged; the issue's command.
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
fm=auto,dp,dp/128x256x64,dp/192x192x64,streamk/128x256x64,streamk/128x128x64
fm=$fm,streamk-tail/128x256x64,streamk-tail/128x256x64@separate,cublas
for pass in 1 2; do
  timeout 100 $g/run streamk-bench-old --shapes $d/rows271.txt --layout tn --rotate \
    --modes auto,dp --reps 21 --inner 5 --csv $o/old-$pass.csv > $o/old-$pass.txt 2>&1
  echo "old pass $pass exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/old-$pass.txt
  timeout 150 $g/run streamk-bench --shapes $d/rows271.txt --layout tn --rotate --modes $fm \
    --reps 21 --inner 5 --csv $o/new-$pass.csv > $o/new-$pass.txt 2>&1
  echo "new pass $pass exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/new-$pass.txt
done
kill $smi
timeout 120 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  --csv $o/waveq-issue-command.csv > $o/waveq-issue-command.txt 2>&1
echo "waveq exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
