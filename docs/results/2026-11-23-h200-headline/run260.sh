#!/usr/bin/env bash
# Session 49, run 260: the final build. Every GPU test (scripts/gpu_check.sh); the issue's waveq
# command; a --shapes FILE run (session 40's check.txt); and the waveq set on every forced plan
# of the aligned tiles, for what a perfect pick would gain over today's dp (13 modes, 31 reps).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
timeout 100 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  > $o/waveq-issue-command.txt 2> $o/waveq.err
echo "waveq exit $? at $SECONDS s"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
timeout 100 $g/run streamk-bench --shapes docs/results/2026-11-23-h200-crosstile/check.txt \
  --modes auto,dp,splitk,cublas --csv $o/check-shapes.csv > $o/check-shapes.txt 2> $o/check-shapes.err
echo "shapes exit $? at $SECONDS s"; sed -n '/# summary/,$p' $o/check-shapes.txt
fm=auto,dp,dp/128x256x64,dp/128x128x64,dp/128x192x64,dp/192x192x64,dp/64x128x64
fm=$fm,streamk/128x256x64,streamk/128x128x64,streamk-tail/128x256x64,streamk-tail/128x128x64
fm=$fm,splitk/128x256x64,splitk/128x128x64
timeout 200 $g/run streamk-bench --set waveq --modes $fm --reps 31 --inner 5 \
  --csv $o/waveq-forced.csv > $o/waveq-forced.txt 2> $o/waveq-forced.err
echo "forced exit $? at $SECONDS s"; sed -n '/# summary/,$p' $o/waveq-forced.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
