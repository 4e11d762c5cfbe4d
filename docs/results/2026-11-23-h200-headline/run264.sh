#!/usr/bin/env bash
# Session 49, run 264: the final build (Stream-K tiles read large operands' panels once more).
# Every GPU test (scripts/gpu_check.sh); the issue's waveq command; run 262's rows again, cold,
# auto against data-parallel on each tile (the 3% rule), layouts tn and nn; fp16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-headline
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
timeout 100 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  > $o/waveq-issue-command.txt 2> $o/waveq.err
echo "waveq exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/waveq-issue-command.txt
fm=auto,dp,dp/128x256x64,dp/128x192x64,dp/128x128x64,cublas
for layout in tn nn; do
  timeout 120 $g/run streamk-bench --shapes $d/rows.txt --layout $layout --rotate --modes $fm \
    --reps 21 --inner 5 --csv $o/rows-$layout.csv > $o/rows-$layout.txt 2>&1
  echo "rows $layout exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/rows-$layout.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
