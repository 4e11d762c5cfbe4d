#!/usr/bin/env bash
# Session 23, run 124: the 128 x 192 tile on the 128 x 256 kernel. (1) Every GPU test on this
# build, the new NarrowTileEveryLayoutModeAndEpilogue included. (2) This build (gpu/) against HEAD
# a74a281's kernels (gpu-old/, 0442ec1), alternating: data-parallel on both old tiles and
# Stream-K on 128 x 256, forced, over the waveq set: the narrow tile's branches must not slow the
# other plans. (3) The paper and waveq sets, fp16: data-parallel and Stream-K on each tile forced,
# auto (this build's planner weighed 128 x 192 by the 128 x 256 constants; not kept) and cuBLAS.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/old.tar.xz
g=$(pwd)/gpu; go=$(pwd)/gpu-old; export LD_LIBRARY_PATH=$g/lib
timeout 300 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
tail -4 $o/check.txt; grep -E "FAILED|Failure" $o/check/*.txt 2>/dev/null | head -20
for pass in 1 2; do
  for b in old new; do
    bb=$g; [ $b = old ] && bb=$go
    $bb/run streamk-bench --set waveq --dtype fp16 --modes dp/128x256x64,dp/128x128x64,streamk/128x256x64 --warmup 3 --reps 15 --inner 5 \
      --csv $o/ab-$b-$pass.csv > $o/ab-$b-$pass.txt 2> /dev/null
    echo "ab $b $pass exit $?"
  done
done
$g/run streamk-bench --set waveq,paper --count 150 --seed 1 --dtype fp16 \
  --modes auto,dp/128x256x64,dp/128x128x64,dp/128x192x64,streamk/128x256x64,streamk/128x192x64,cublas \
  --warmup 3 --reps 15 --inner 5 --csv $o/tiles-fp16.csv > $o/tiles-fp16.txt 2> $o/tiles-fp16.err
echo "tiles exit $? errors $(grep -c -i 'wrong\|error' $o/tiles-fp16.txt)"; sed -n '/# summary/,$p' $o/tiles-fp16.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
