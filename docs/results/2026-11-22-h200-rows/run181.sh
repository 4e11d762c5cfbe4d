#!/usr/bin/env bash
# Session 34, run 181 (run 180's build): GPT-2's logits at 50257 words against the vocabulary
# padded to 50264 and 50304 (vocab-shapes.txt), packed and padded rows, fp16, 31 repetitions,
# twice in a row: what the rows' bulk copies cost against the TMA store.
set -u
o=$OUT/r; mkdir -p $o
[[ -d gpu ]] || tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
s=docs/results/2026-11-22-h200-rows/vocab-shapes.txt
for rep in 1 2; do
  for pack in packed padded; do
    flag=""; [[ $pack == packed ]] && flag="--packed"
    timeout 100 $g/run streamk-bench --shapes $s $flag --modes auto,cublas --warmup 3 --reps 31 \
      --inner 5 --csv $o/$pack-$rep.csv > $o/$pack-$rep.txt 2> $o/$pack-$rep.err
    echo "$pack $rep exit $?"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
