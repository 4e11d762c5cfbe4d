#!/usr/bin/env bash
# Session 37, run 204: the same two builds as run 203 (streamk-bench-before: fa29c6d; streamk-bench:
# the stmatrix staging), on what run 203 did not time. ptxas now spills 92 bytes (stores; 116
# loads) in the 2-SM cluster kernel, which spilled none before, and 76 in the 128 x 256 kernel
# (48 before): six K-misaligned shapes that auto runs on the clusters, and the llm set, auto and
# cuBLAS, before and after alternating, two passes each.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
shapes="--shape 2048x2048x2056,4096x4096x4104,8192x8192x8200,1000x2648x3288,4144x1488x5208"
shapes="$shapes,2880x3064x7752"
for pass in 1 2; do
  for build in before after; do
    sfx=""; [[ $build == before ]] && sfx="-before"
    timeout 100 $g/run streamk-bench$sfx $shapes --modes auto,cublas \
      --csv $o/cluster-$build-$pass.csv > $o/cluster-$build-$pass.txt 2>&1
    echo "cluster $build $pass exit $?"
    timeout 150 $g/run streamk-bench$sfx --set llm --modes auto,cublas \
      --csv $o/llm-$build-$pass.csv > $o/llm-$build-$pass.txt 2> $o/llm-$build-$pass.err
    echo "llm $build $pass exit $?"; sed -n "/# summary/,\$p" $o/llm-$build-$pass.txt | tail -1
  done
done
grep -h "cluster\|256x256" $o/cluster-*-1.txt | head -12
cd $OUT && tar czf all.tgz r && rm -rf r && ls
