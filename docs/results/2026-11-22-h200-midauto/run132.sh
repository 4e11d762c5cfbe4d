#!/usr/bin/env bash
# Session 24, run 132: Stream-K blocks load each whole tile rotated, from the k-iteration their
# clock is at (persistent_kernel.cuh), so blocks in flight load the same k-slices. Predicted:
# forced all-tiles Stream-K over many deep tiles reads about what data-parallel reads from DRAM
# and runs near its time (run 130: 5888x2944x8192 on 128 x 192, 2.80 GB and 752 us against
# 0.43 GB and 474 us); plans with no whole tiles in a Stream-K block unchanged.
# (1) Every GPU test (gpu-exp/: this build). (2) Nsight Compute DRAM bytes of run 130's Stream-K
# launches. (3) A/B against the build before (gpu/), auto and forced Stream-K on both wide tiles,
# the paper, waveq and llm sets, fp16, old/new/old/new.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/rot.tar.xz
g=$(pwd)/gpu-exp; go=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
timeout 240 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "PASSED|FAILED|exit" $o/check/gpu_tests.log | head -30
met=dram__bytes_read.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum
for s in 5888x2944x8192 4352x3072x8192; do
  for m in streamk/128x192x64 streamk/128x256x64; do
    f=$s-${m//\//-}
    timeout 60 ncu --metrics $met -k regex:StreamKGemmKernel -c 1 \
      $g/streamk-bench --shape $s --modes $m --warmup 0 --reps 1 --inner 1 > $o/ncu-$f.txt 2>&1
    echo "$s $m rc $?"; grep -E "dram__bytes_read.sum|hit_rate|gpu__time_duration" $o/ncu-$f.txt | awk '{print "   ", $1, $(NF-1), $NF}'
  done
done
for pass in 1 2; do
  for b in old new; do
    bb=$g; [ $b = old ] && bb=$go
    LD_LIBRARY_PATH=$bb/lib timeout 80 $bb/run streamk-bench --set paper,waveq,llm --count 150 --seed 1 \
      --dtype fp16 --modes auto,streamk/128x256x64,streamk/128x192x64 --warmup 3 --reps 9 --inner 5 \
      --csv $o/ab-$b-$pass.csv > $o/ab-$b-$pass.txt 2> /dev/null
    echo "ab $b $pass exit $?"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
