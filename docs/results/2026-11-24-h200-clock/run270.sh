#!/usr/bin/env bash
# Session 51, run 270: does Stream-K's gain over data-parallel on the rows of rows.txt follow the
# SM clock? Session 48's build (9b4898c), no GPU test (no code change since run 269). Three passes
# of rows.txt, tn, cold, fp16: auto against `dp`, data-parallel and the partial round's Stream-K
# on 128 x 256, and cuBLAS; the SM clock, power and temperature logged every 100 ms, and each
# shape's start time stamped, so each shape's clock can be read beside its times.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-clock
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,\
clocks_event_reasons.active --format=csv,nounits -lms 100 > $o/clock.csv 2>&1 &
smi=$!
stamp() { while IFS= read -r l; do echo "$(date +%s.%N) $l"; done; }
fm=auto,dp,dp/128x256x64,streamk-tail/128x256x64,cublas
for pass in 1 2 3; do
  echo "pass $pass start $(date +%s.%N)" >> $o/passes.txt
  timeout 170 $g/run streamk-bench --shapes $d/rows.txt --layout tn --rotate --modes $fm \
    --reps 21 --inner 5 --csv $o/rows-$pass.csv > $o/rows-$pass.txt 2> >(stamp > $o/prog-$pass.txt)
  echo "pass $pass exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/rows-$pass.txt
done
echo "end $(date +%s.%N)" >> $o/passes.txt
kill $smi
cd $OUT && tar czf all.tgz r && rm -rf r && ls
