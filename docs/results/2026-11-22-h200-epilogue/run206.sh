#!/usr/bin/env bash
# Session 37, run 206: after the review commit that gives the epilogue's three box writers and
# readers one swizzle helper (Epilogue::BoxOffset) and Pack a 16-bit-only static_assert; ptxas's
# spills moved (128 x 256 76 -> 80 bytes, 192 x 192 84 -> 72, cluster 92 -> 80). Every GPU test
# with all three mainloops; then run 203's six shapes in fp16 and bf16 against fa29c6d's
# streamk-bench (before the stmatrix staging), alternating, three passes, as run 203 did.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 500 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
shapes="--shape 4096x50304x768,512x50304x768,5120x2560x1024,4096x4096x4096,1024x1024x1024,3072x1536x4096"
for pass in 1 2 3; do
  for build in before after; do
    sfx=""; [[ $build == before ]] && sfx="-before"
    for dt in fp16 bf16; do
      timeout 100 $g/run streamk-bench$sfx $shapes --dtype $dt --modes auto,cublas \
        --csv $o/shapes-$build-$dt-$pass.csv > $o/shapes-$build-$dt-$pass.txt 2>&1
    done
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
