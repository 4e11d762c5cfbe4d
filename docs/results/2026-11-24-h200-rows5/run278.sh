#!/usr/bin/env bash
# Session 52, run 278: the build with every tile Stream-K on 128 x 128 yielding to 128 x 192 and
# streamk-bench planning auto once with the launch flags. Every GPU test (scripts/gpu_check.sh);
# cli.bench_auto_plan_follows_repack's command, and the same with --repack auto (whose auto copies
# A); run 277's moved shapes again on this machine (tn fp16 twice, nn once); the prefill grid
# once (tn fp16) with the SM clock logged; the issue's command.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-rows5
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
for r in off auto; do
  timeout 60 $g/run streamk-bench --shape 3128x656x5528 --modes auto,dp --repack $r --reps 3 \
    > $o/repack-$r.txt 2>&1
  echo "repack $r exit $?; repack- lines: $(grep -c 'repack-' $o/repack-$r.txt)"
done
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,\
clocks_event_reasons.active --format=csv,nounits -lms 100 > $o/clock.csv 2>&1 &
smi=$!
fm=auto,dp,streamk:132/128x128x64,streamk:131/128x256x64,dp/128x256x64,dp/128x192x64,cublas
for run in "tn fp16 1" "tn fp16 2" "nn fp16 1"; do
  set -- $run
  timeout 110 $g/run streamk-bench --shapes $d/moved.txt --layout $1 --dtype $2 --rotate \
    --modes $fm --reps 21 --inner 5 --csv $o/moved-$1-$2-$3.csv > $o/moved-$1-$2-$3.txt 2>&1
  echo "$1 $2 pass $3 exit $? at $SECONDS s"
done
timeout 170 $g/run streamk-bench --shapes docs/results/2026-11-24-h200-clock/grid.txt \
  --layout tn --rotate --modes auto,dp,cublas --reps 21 --inner 5 \
  --csv $o/grid-tn-fp16-1.csv > $o/grid-tn-fp16-1.txt 2>&1
echo "grid exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/grid-tn-fp16-1.txt
kill $smi
timeout 120 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  --csv $o/waveq-issue-command.csv > $o/waveq-issue-command.txt 2>&1
echo "waveq exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
