#!/usr/bin/env bash
# Session 31, run 167: a fifth kernel configuration, 64 x 128 tiles on one compute warp group,
# forced only (auto does not weigh it yet). Every GPU test (a new chunk checks the tile in every
# layout, dtype, mode, reduction and epilogue); then, from CUDA graphs (fp16), the small shapes of
# small-shapes.txt, the decode rows and the few-tile deep-K shapes of session 21, each with auto,
# data-parallel and split-K on the 64 x 128 tile, and cuBLAS.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-22-h200-separate
s=docs/results/2026-11-22-h200-small
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 400 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
t=64x128x64
m=auto,dp,dp/$t,splitk:2/$t,splitk:3/$t,splitk:4/$t,splitk:2/$t@separate,splitk:4/$t@separate,cublas
for f in $s/small-shapes.txt $d/decode-shapes.txt $d/separate-shapes.txt; do
  n=$(basename $f .txt)
  timeout 120 $g/run streamk-bench --shapes $f --dtype fp16 --graph --modes $m \
    --warmup 3 --reps 15 --inner 5 --csv $o/graph-$n.csv > $o/graph-$n.txt 2> $o/graph-$n.err
  echo "$n exit $? errors $(grep -c ERROR $o/graph-$n.txt)"
done
timeout 60 $g/run streamk-trace 4096 16 4096 --mode splitk --splits 2 --tile $t > $o/trace-dec-small.txt 2>&1
timeout 60 $g/run streamk-trace 1024 1024 1024 --mode dp --tile $t > $o/trace-1024-small.txt 2>&1
grep -h -E "^span|per piece|graph" $o/trace-*.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
