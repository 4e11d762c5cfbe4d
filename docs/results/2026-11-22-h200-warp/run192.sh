#!/usr/bin/env bash
# Session 35, run 192: GPT-2's logits with packed rows (ldd 50257, each row at another offset
# within 16 bytes), where streamk-bench read the copying warp's gain through a 10-23% spread in
# run 191: streamk-trace --ldd 50257 at 4096 and 512 tokens, STREAMK_ROW_COPIES=compute against
# =warp, three rounds alternating, with the per-piece times; then streamk-bench --packed at 4096
# tokens, 101 repetitions, the same alternation.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
for round in 1 2 3; do
  for copies in compute warp; do
    for sh in "4096 50257 768" "512 50257 768"; do
      echo "=== $copies $round $sh --ldd 50257"
      STREAMK_ROW_COPIES=$copies timeout 60 $g/run streamk-trace $sh --ldd 50257 2>&1 |
        grep -E "checked|untraced|per block|pieces"
    done >> $o/traces.txt
  done
done
cat $o/traces.txt
for round in 1 2 3; do
  for copies in compute warp; do
    f=$o/packed-$copies-$round
    STREAMK_ROW_COPIES=$copies timeout 100 $g/run streamk-bench --shape 50257x4096x768 --packed \
      --modes auto --warmup 5 --reps 101 --inner 5 --csv $f.csv > $f.txt 2> $f.err
    echo "$copies $round $(grep 50257,4096 $f.csv | cut -d, -f12,13)"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
