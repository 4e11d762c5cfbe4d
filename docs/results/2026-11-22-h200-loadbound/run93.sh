#!/usr/bin/env bash
# Session 19, run 93: auto's estimate for misaligned rows combines the aligned prediction and the
# L2 floor (LoadBoundMicros) instead of taking the larger. Every GPU test; out of sample, the
# misaligned shapes of the paper sets with seeds 2 and 3 (fp16) under auto, dp, auto on each block
# tile (what auto ran before on blocks) and auto and dp on the cluster tile; then the full
# benchmark (scripts/gpu_bench.sh) in fp16 and bf16. Run from the directory holding gpu/.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
timeout 240 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -9
timeout 200 $g/run streamk-bench --shapes $g/misaligned-s2s3.txt --dtype fp16 \
  --modes auto,dp,auto/128x256x64,auto/128x128x64,auto/256x256x64,dp/256x256x64 --warmup 3 --reps 15 --inner 5 \
  --csv $o/s2s3.csv > $o/s2s3.txt 2> $o/s2s3.err
echo "s2s3 rc $?"; sed -n '/# summary/,$p' $o/s2s3.txt; tail -2 $o/s2s3.err
for dt in fp16 bf16; do timeout 150 bash $g/gpu_bench.sh $g $o $dt; echo "bench $dt exit $?"; done
cd $o && tar czf csv.tgz bench-*.csv bench-*.json bench-*.err && tar czf misc.tgz check check.txt gpu.txt && rm -rf check check.txt bench-*.csv bench-*.json bench-*.err gpu.txt && ls
