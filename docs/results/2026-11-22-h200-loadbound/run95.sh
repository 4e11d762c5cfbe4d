#!/usr/bin/env bash
# Session 19, run 95: every K-misaligned shape of the paper sets with seeds 1-3 (fp16) with both
# operands repacked (--repack on) under auto on each block tile, and as they are under auto, dp
# and auto on each tile (clusters included): data for the repack estimate, which read 17-21% over
# the measured time in run 94 (clusters 7-9%), and for auto against dp out of sample.
# Run from the directory holding gpu/.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
timeout 250 $g/run streamk-bench --shapes $g/misaligned-s1s2s3.txt --dtype fp16 --repack on \
  --modes auto/128x256x64,auto/128x128x64 --warmup 3 --reps 15 --inner 5 \
  --csv $o/repacked.csv > /dev/null 2> $o/repacked.err
echo "repacked rc $?"; tail -1 $o/repacked.err
timeout 250 $g/run streamk-bench --shapes $g/misaligned-s1s2s3.txt --dtype fp16 \
  --modes auto,dp,auto/128x256x64,auto/128x128x64,auto/256x256x64 --warmup 3 --reps 15 --inner 5 \
  --csv $o/as-is.csv > /dev/null 2> $o/as-is.err
echo "as-is rc $?"; tail -1 $o/as-is.err
