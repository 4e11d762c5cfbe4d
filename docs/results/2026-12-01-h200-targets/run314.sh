#!/usr/bin/env bash
# Session 60, run 314: the final build (cd40d7e's code: streamk-bench's plot). Every GPU test
# (all three mainloops); the waveq set against dp and dp/128x256x64 in two more passes per dtype
# (31 repetitions, the modes interleaved), and the issue's command in bf16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv; } > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -10 $o/check.txt
for p in fp16-2 bf16-2 fp16-3 bf16-3; do
  dt=${p%-*}
  timeout 120 $g/run streamk-bench --set waveq --dtype $dt --reps 31 --inner 5 \
    --modes auto,dp,dp/128x256x64,cublas --csv $o/waveq-$p.csv --svg $o/waveq-$p.svg \
    > $o/waveq-$p.txt 2> $o/waveq-$p.err
  echo "waveq $p exit $? at $SECONDS s"; sed -n '/# summary/,/^(a mode/p' $o/waveq-$p.txt
done
timeout 120 $g/run streamk-bench --set waveq --dtype bf16 --modes auto,dp,splitk,cublas \
  --csv $o/waveq-issue-command-bf16.csv > $o/waveq-issue-command-bf16.txt 2>&1
echo "waveq issue bf16 exit $? at $SECONDS s"; sed -n '/# summary/,/^(a mode/p' $o/waveq-issue-command-bf16.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
