#!/usr/bin/env bash
# Session 49, run 261: the waveq set against data-parallel on the 128 x 256 tile it is built from
# (dp/128x256x64) beside dp (the fastest of five tiles), the modes, fp16 and bf16, two
# passes each (31 repetitions), on the final build.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
for dt in fp16 bf16; do
  for pass in 1 2; do
    timeout 120 $g/run streamk-bench --set waveq --dtype $dt \
      --modes auto,dp,dp/128x256x64,splitk,cublas --reps 31 --inner 5 \
      --csv $o/waveq-$dt-$pass.csv > $o/waveq-$dt-$pass.txt 2> $o/waveq-$dt-$pass.err
    echo "waveq $dt pass $pass exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/waveq-$dt-$pass.txt
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
