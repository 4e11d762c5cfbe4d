#!/usr/bin/env bash
# Session 6, run 10: A/B of the producer lane's hand-off and L2 prefetch, switched at run time by
# a temporary STREAMK_EXPERIMENT (bit 0: no prefetch, bit 1: no hand-off) in one call.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
which ncu nsys 2>&1 | head -2; ls /usr/local/cuda/bin 2>/dev/null | grep -i -E "ncu|nsight" | head
for e in 3 0 1 2 3 0; do
  export STREAMK_EXPERIMENT=$e
  for s in "1536 3072 4096" "2560 5120 4096" "1536 3072 1024 --mode streamk"; do
    echo "=== E=$e streamk-trace $s" >> $o/ab.txt; timeout 30 $g/run streamk-trace $s >> $o/ab.txt 2>&1
  done
  timeout 60 $g/run streamk-bench --set waveq --modes auto,dp > $o/waveq-e$e.txt 2>/dev/null
  echo "E=$e $(grep -E '^waveq +dp ' $o/waveq-e$e.txt)"
done
grep -E "^===|untraced|per block" $o/ab.txt
