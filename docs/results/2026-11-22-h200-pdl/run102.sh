#!/usr/bin/env bash
# Session 20, run 102: streamk-bench --graph (each repetition replays a CUDA graph of its
# launches: the GPU's time without the host's). The small shapes with and without it, twice,
# alternating; then the three sets in fp16 with it. Run from the repository root with gpu-b/
# carried.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH="$g/lib"
d=docs/results/2026-11-22-h200-pdl
for pass in 1 2; do
  for graph in true false; do
    $g/run streamk-bench --shapes $d/small-shapes.txt --dtype fp16 --modes auto,dp,cublas \
      --warmup 5 --reps 31 --inner 10 --graph=$graph --csv $o/small-graph-$graph-$pass.csv \
      > $o/small-graph-$graph-$pass.txt 2> /dev/null
    echo "small pass $pass graph $graph exit $?"
  done
done
$g/run streamk-bench --set paper,waveq,llm --count 150 --seed 1 --dtype fp16 \
  --modes auto,dp,cublas --warmup 3 --reps 15 --inner 5 --graph \
  --csv $o/sets-graph-fp16.csv --svg $o/sets-graph-fp16.svg > $o/sets-graph-fp16.txt 2> $o/sets-graph-fp16.err
echo "sets exit $?"; head -3 $o/sets-graph-fp16.txt; sed -n '/# summary/,$p' $o/sets-graph-fp16.txt
grep -c ERROR $o/sets-graph-fp16.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
