#!/usr/bin/env bash
# Session 37, run 203: the TMA epilogue stages a 16-bit D without C by stmatrix (four 8 x 8
# blocks of a warp's fragments per store), without scaling where alpha == 1, and packs each pair
# with one paired conversion (Epilogue::StageMatrices, Pack). Before: fa29c6d's streamk-bench (kernels
# as 4e3cf99), bundled as streamk-bench-before. Every GPU test; streamk-trace after; six shapes
# in fp16 and bf16, before and after alternating, three passes; the waveq
# set, auto and cuBLAS, before and after twice, alternating.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
cuobjdump -sass $g/streamk-trace 2>/dev/null | grep -c STSM > $o/stsm-count.txt
GPU_TEST_TIMEOUT=240 timeout 500 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
# Where the time goes, after (the carry holds one binary of each tool before: streamk-bench's).
for sh in "4096 50304 768" "512 50304 768" "5120 2560 1024" "4096 4096 4096" \
          "1024 1024 1024" "4096 4096 4096 --dtype bf16" "3072 1536 4096"; do
  echo "=== after $sh"
  timeout 60 $g/run streamk-trace $sh 2>&1 | grep -E "checked|untraced|per block|pieces"
done > $o/traces.txt
grep -E "===|untraced|per piece" $o/traces.txt
# The same shapes' times, before and after alternating, three passes.
shapes="--shape 4096x50304x768,512x50304x768,5120x2560x1024,4096x4096x4096,1024x1024x1024,3072x1536x4096"
for pass in 1 2 3; do
  for build in before after; do
    sfx=""; [[ $build == before ]] && sfx="-before"
    for dt in fp16 bf16; do
      timeout 100 $g/run streamk-bench$sfx $shapes --dtype $dt --modes auto \
        --csv $o/shapes-$build-$dt-$pass.csv > $o/shapes-$build-$dt-$pass.txt 2>&1
    done
  done
done
for pass in 1 2; do
  for build in before after; do
    sfx=""; [[ $build == before ]] && sfx="-before"
    timeout 150 $g/run streamk-bench$sfx --set waveq --modes auto,cublas \
      --csv $o/waveq-$build-$pass.csv > $o/waveq-$build-$pass.txt 2> $o/waveq-$build-$pass.err
    echo "waveq $build $pass exit $?"; sed -n "/# summary/,\$p" $o/waveq-$build-$pass.txt | tail -2
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
