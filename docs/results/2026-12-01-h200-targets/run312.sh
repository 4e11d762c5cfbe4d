#!/usr/bin/env bash
# Session 60, run 312: issue #4's targets on the final build. Every GPU test (all three
# mainloops); the issue's command as it stands (streamk-bench --set waveq --modes
# auto,dp,splitk,cublas); the waveq set against data-parallel on the tile it is built from
# (dp/128x256x64) and against the planner's own data-parallel pick (dp), with auto held to that
# tile too (auto/128x256x64), fp16 and bf16, 31 repetitions; and a --shapes FILE run.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-12-01-h200-targets
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv; } > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
timeout 120 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  --csv $o/waveq-issue-command.csv > $o/waveq-issue-command.txt 2>&1
echo "waveq exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/waveq-issue-command.txt
for dt in fp16 bf16; do
  timeout 120 $g/run streamk-bench --set waveq --dtype $dt --reps 31 --inner 5 \
    --modes auto,dp,dp/128x256x64,auto/128x256x64,cublas --csv $o/waveq-$dt.csv \
    --svg $o/waveq-$dt.svg > $o/waveq-$dt.txt 2> $o/waveq-$dt.err
  echo "waveq $dt exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/waveq-$dt.txt
done
timeout 120 $g/run streamk-bench --shapes $d/shapes.txt --modes auto,dp,splitk,cublas \
  --csv $o/shapes.csv --json $o/shapes.json --svg $o/shapes.svg > $o/shapes.txt 2> $o/shapes.err
echo "shapes exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/shapes.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
