#!/usr/bin/env bash
# Session 28, run 153: what fp32 D costs per tile, the drift of run 152 taken out. Run 152 timed D
# fp32, then D fp16, and its second command ran 4-5% faster on every set (against run 147's fp16
# D too), so large shapes read fp32 D 5-20% slower. Here the same plans with D fp32 and fp16 in
# passes A B B A (the sets, paper: 150 shapes, seed 1, fp16 in; dp on each TMA tile and
# all-tiles Stream-K; HEAD 435586b).
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $o/gpu.txt
for pass in 1:fp32 2:fp16 3:fp16 4:fp32; do
  p=${pass%%:*} out=${pass##*:}
  timeout 140 $g/run streamk-bench --set paper,waveq,llm --count 150 --seed 1 --dtype fp16 \
    --out_dtype $out --modes dp/128x128x64,dp/128x256x64,dp/128x192x64,dp/192x192x64,streamk \
    --warmup 3 --reps 15 --inner 5 --csv $o/pass$p-$out.csv > $o/pass$p-$out.txt 2> /dev/null
  echo "pass $p $out exit $?"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
