#!/usr/bin/env bash
# Session 25, run 136: the TMA kernels' producer as a warp group that hands registers to the
# compute warps (setmaxnreg: 40 / 232, clusters 88 / 208), which leaves the 128 x 256 kernel
# without spills. (1) Every GPU test. (2) A/B against HEAD 013b41a (gpu-old/, run 135's bundle),
# modes auto, dp and streamk, fp16, old/new/old/new.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; mkdir -p old && tar xJf gpu-b/old.tar.xz -C old
g=$(pwd)/gpu; go=$(pwd)/old/gpu; export LD_LIBRARY_PATH=$g/lib
timeout 240 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "PASSED|FAILED|exit" $o/check/gpu_tests.log | head -30
for pass in 1 2; do
  for b in old new; do
    bb=$g; [ $b = old ] && bb=$go
    LD_LIBRARY_PATH=$bb/lib timeout 100 $bb/run streamk-bench --set paper,waveq,llm --count 150 --seed 1 \
      --dtype fp16 --modes auto,dp,streamk --warmup 3 --reps 15 --inner 5 --csv $o/ab-$b-$pass.csv > $o/ab-$b-$pass.txt 2> /dev/null
    echo "ab $b $pass exit $?"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
