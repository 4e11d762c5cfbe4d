#!/usr/bin/env bash
# Session 41, run 230: (1) every GPU test on the build whose persistent kernel walks its work
# blocks in WorkBlocks (scripts/gpu_check.sh, all three mainloops); (2) the cause of session 40's
# ping-pong stream term: ncu's DRAM and L2 counters for data-parallel 128 x 128 tiles shared
# (STREAMK_PINGPONG=off) and ping-pong (=on), and 128 x 256 tiles, where D is 134 MB (8192 x 8192
# x 768, past the 60 MB L2) and where it is 35 MB (4224 x 4096 x 768), fp16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
GPU_TEST_TIMEOUT=240 timeout 420 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $?"; tail -4 $o/check.txt
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum
M=$M,lts__t_sectors_op_write.sum,lts__t_requests_op_read.sum
M=$M,sm__throughput.avg.pct_of_peak_sustained_elapsed
for s in 8192x8192x768 4224x4096x768; do
  for v in "off dp/128x128x64" "on dp/128x128x64" "off dp/128x256x64"; do
    set -- $v
    STREAMK_PINGPONG=$1 timeout 60 ncu --clock-control none --metrics $M \
      --kernel-name regex:StreamK -c 2 $g/run streamk-bench --shape $s --modes $2 --reps 1 \
      --inner 1 --warmup 0 > $o/ncu-$s-$1-${2//\//_}.txt 2>&1
    echo "$s $1 $2 ncu exit $?"
  done
  STREAMK_PINGPONG=off timeout 60 $g/run streamk-bench --shape $s \
    --modes dp/128x128x64,dp/128x256x64 --reps 15 > $o/bench-$s-off.txt 2>&1
  STREAMK_PINGPONG=on timeout 60 $g/run streamk-bench --shape $s --modes dp/128x128x64 \
    --reps 15 > $o/bench-$s-on.txt 2>&1
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
