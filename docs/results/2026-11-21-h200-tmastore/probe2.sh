#!/usr/bin/env bash
# Session 14, probe between runs 51 and 52 (output in run52/probe2.txt): per-launch cost against the
# traced span, one block to 132, and cuBLAS on the same shapes. Run from the directory holding gpu/.
set -u
g=$(pwd)/gpu; export LD_LIBRARY_PATH="$g/lib"
for args in "128 128 64 --mode dp" "256 256 1024 --mode dp" "2432 1792 1024 --mode dp" "1792 2432 1024 --mode dp"; do
  echo "=== streamk-trace $args"; timeout 30 $g/run streamk-trace $args 2>&1 | grep -E "^untraced|^host|^span|^per block|^mode"
done
timeout 60 $g/run streamk-bench --shape 128x128x64 --shape 256x256x1024 --shape 1792x2432x1024 --modes dp,cublas --warmup 3 --reps 9 --inner 5 2>/dev/null | head -8
