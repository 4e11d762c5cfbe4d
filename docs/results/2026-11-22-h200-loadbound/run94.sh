#!/usr/bin/env bash
# Session 19, run 94 (the final build): the issue's waveq command; large K-misaligned shapes
# repacked on blocks, on clusters as they are, and repacked on clusters (never measured before).
# Run from the directory holding gpu/.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
timeout 120 $g/run streamk-bench --shapes $g/repack-clusters.txt --modes auto,auto/256x256x64,cublas \
  --reps 31 --csv $o/as-is.csv > $o/as-is.txt 2>/dev/null
echo "as-is rc $?"; grep -v "^#" $o/as-is.txt | head -8
timeout 120 $g/run streamk-bench --shapes $g/repack-clusters.txt --repack on \
  --modes auto/128x256x64,auto/256x256x64,dp/256x256x64 --reps 31 --csv $o/repacked.csv > $o/repacked.txt 2>/dev/null
echo "repacked rc $?"; grep -v "^#" $o/repacked.txt | head -8
