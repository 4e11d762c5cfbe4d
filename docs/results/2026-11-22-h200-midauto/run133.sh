#!/usr/bin/env bash
# Session 24, run 133: run 132's rotation slowed two kinds of plan: Stream-K on decode shapes
# (16x28672x8192 all tiles on 128 x 256: 204-209 us against 173-174) and, in both passes, auto's
# hybrid on 5120x3456x8192 (447-451 against 402-410). Three builds, alternating, three passes:
# gpu/ (no rotation), gpu-exp/ (run 132's), gpu-probe/ (rotation only where the tiles span two
# or more rows and columns: a decode shape's operand shared by its tiles is small). Plus Nsight
# Compute DRAM bytes of 5120x3456x8192's auto plan on each.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/rot.tar.xz; tar xJf gpu-b/rot2.tar.xz
shapes=5120x3456x8192,4864x3584x8192,5120x2560x8192,4352x3072x8192,3072x1536x8192,2048x2176x8192,16x28672x8192,64x11008x4096,16x4096x11008,4816x248x3496,5888x2944x8192
met=dram__bytes_read.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum
for b in gpu gpu-exp gpu-probe; do
  bb=$(pwd)/$b
  LD_LIBRARY_PATH=$bb/lib timeout 60 ncu --metrics $met -k regex:StreamKGemmKernel -c 1 \
    $bb/streamk-bench --shape 5120x3456x8192 --modes auto --warmup 0 --reps 1 --inner 1 > $o/ncu-$b.txt 2>&1
  echo "ncu $b: $(grep -E 'dram__bytes_read.sum|gpu__time_duration' $o/ncu-$b.txt | awk '{printf "%s %s %s  ", $1, $(NF-1), $NF}')"
done
for pass in 1 2 3; do
  for b in gpu gpu-exp gpu-probe; do
    bb=$(pwd)/$b
    LD_LIBRARY_PATH=$bb/lib timeout 90 $bb/streamk-bench --shape $shapes --dtype fp16 \
      --modes auto,dp,streamk/128x256x64,streamk/128x192x64 --warmup 3 --reps 15 --inner 5 \
      --csv $o/ab-$b-$pass.csv > $o/ab-$b-$pass.txt 2> /dev/null
    echo "ab $b $pass exit $?"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
