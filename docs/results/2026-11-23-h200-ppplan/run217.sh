#!/usr/bin/env bash
# Session 39, run 217: after the planner prices ping-pong and the launch's rule takes K-major rows
# on 128-byte lines, two tiles a block or more and 8-24 k-iterations (kernels::PingPongOf): the
# waveq set with auto, dp and cuBLAS, fp16 and bf16, two passes, alternating this build and c87e547's
# streamk-bench (session 38's HEAD: ping-pong not priced, the four-tile rule).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
for pass in 1 2; do
  for build in new c87e547; do
    bin=streamk-bench; [[ $build == c87e547 ]] && bin=streamk-bench-c87e547
    for dt in fp16 bf16; do
      timeout 80 $g/run $bin --set waveq --dtype $dt --modes auto,dp,cublas \
        --csv $o/$build-$dt-$pass.csv > $o/$build-$dt-$pass.txt 2>&1
      echo "$build $dt $pass exit $?"
    done
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
