#!/usr/bin/env bash
# Session 26, run 141 (build acb26d6, no code change): what the third and fourth tiles would
# give if auto weighed their split-K and Stream-K plans. The sets, fp16, with auto and
# split-K forced on 128 x 192 and on 192 x 192 (the planner's own pick on that tile, from its
# constants), beside auto, dp and cuBLAS.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
m=auto,dp,auto/128x192x64,splitk/128x192x64,auto/192x192x64,splitk/192x192x64,cublas
for s in waveq,llm paper; do
  timeout 270 $g/run streamk-bench --set $s --count 150 --seed 1 --dtype fp16 --modes $m \
    --warmup 3 --reps 15 --inner 5 --csv $o/extra-${s%%,*}.csv > $o/extra-${s%%,*}.txt 2> $o/extra-${s%%,*}.err
  echo "$s exit $?"; sed -n '/# summary/,$p' $o/extra-${s%%,*}.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
