#!/usr/bin/env bash
# Session 23, run 125: the 128 x 192 tile as a kernel configuration of its own (kBN = 192: 96
# accumulator registers, no spills, four 40 KiB stages), after run 124's first form (192 columns
# of the 256-wide kernel, chosen at run time) slowed the 256-wide plans by 1.5-3.5%. (1) Every GPU
# test. (2) This build against HEAD a74a281's kernels (gpu-old/), waveq, forced tiles, one pass
# each. (3) The paper, waveq and llm sets, fp16: data-parallel and Stream-K on each tile forced,
# auto (this build's planner weighed 128 x 192 by the 128 x 256 constants; it lost up to 12% on
# some picks, and the committed planner does not weigh it) and cuBLAS.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/old.tar.xz
g=$(pwd)/gpu; go=$(pwd)/gpu-old; export LD_LIBRARY_PATH=$g/lib
timeout 300 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "PASSED|FAILED|exit" $o/check/gpu_tests.log | head -30
for b in old new; do
  bb=$g; [ $b = old ] && bb=$go
  $bb/run streamk-bench --set waveq --dtype fp16 --modes dp/128x256x64,dp/128x128x64,streamk/128x256x64 \
    --warmup 3 --reps 15 --inner 5 --csv $o/ab-$b-1.csv > $o/ab-$b-1.txt 2> /dev/null
  echo "ab $b exit $?"
done
$g/run streamk-bench --set waveq,paper,llm --count 150 --seed 1 --dtype fp16 \
  --modes auto,dp/128x256x64,dp/128x128x64,dp/128x192x64,streamk/128x256x64,streamk/128x192x64,cublas \
  --warmup 3 --reps 15 --inner 5 --csv $o/tiles-fp16.csv > $o/tiles-fp16.txt 2> $o/tiles-fp16.err
echo "tiles exit $? errors $(grep -c -i 'wrong\|error' $o/tiles-fp16.txt)"; sed -n '/# summary/,$p' $o/tiles-fp16.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
