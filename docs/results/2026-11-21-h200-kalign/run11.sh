#!/usr/bin/env bash
# Session 6, run 11: does K's alignment (k % 32 == 8 or 24 puts rows at odd multiples of 16 bytes)
# slow the TMA mainloop? The same shapes with K rounded, in the TMA and the cp.async kernel, and
# in every layout.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for lay in tn nn nt tt; do
  timeout 60 $g/run streamk-bench --shapes $g/kalign-shapes.txt --layout $lay --modes dp,splitk,cublas > $o/tma-$lay.txt 2>/dev/null
done
STREAMK_MAINLOOP=sm90-cpasync timeout 60 $g/run streamk-bench --shapes $g/kalign-shapes.txt --modes dp,splitk,cublas > $o/cpasync-tn.txt 2>/dev/null
for f in $o/*.txt; do echo "== $(basename $f)"; grep -E "^file " $f | awk '{print $2, $3, $4, $5, $6, $7, $8, $9, $10, $11}'; done
