#!/usr/bin/env bash
# Session 51, run 272: run 271's moved rows in one interleaved pass each with their old pick
# forced (streamk-tiles:T:132 for the two-tile hybrids, now that streamk-bench runs a chosen
# count of tiles Stream-K; every tile Stream-K; the partial round with a separate reduction;
# 192 x 192), cold caches: tn fp16, nn fp16 and tn bf16. No GPU test (the kernels and the planner
# are run 271's; the bench gained a mode).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
# group | the old pick's mode | rows (bench M weights x N tokens x K)
groups=(
  "t204|streamk-tiles:204:132/128x256x64@deterministic|28672x384x4096 28672x384x5120 28672x384x8192 28672x384x14336 14336x768x4096 14336x768x5120 14336x768x8192 14336x768x14336 13824x2048x14336"
  "t216|streamk-tiles:216:132/128x256x64@deterministic|20480x768x8192 20480x768x14336 24576x640x8192 24576x640x14336"
  "t212|streamk-tiles:212:132/128x256x64@deterministic|11008x1024x8192 11008x1024x14336"
  "t228|streamk-tiles:228:132/128x256x64@deterministic|18432x640x14336"
  "t156|streamk-tiles:156:132/128x256x64@deterministic|18432x512x14336"
  "all|streamk:132/128x256x64@deterministic|11008x640x8192 11008x640x14336 12288x640x14336 13824x512x5120 13824x512x8192 13824x512x14336 14336x512x14336 11008x512x8192 14336x384x8192"
  "sep|streamk-tail/128x256x64@separate|20480x256x8192"
  "w192|dp/192x192x64|24576x384x14336"
)
for combo in "tn fp16" "nn fp16" "tn bf16"; do
  set -- $combo
  for grp in "${groups[@]}"; do
    IFS='|' read -r name old rows <<< "$grp"
    args=(); for r in $rows; do args+=(--shape $r); done
    timeout 100 $g/run streamk-bench "${args[@]}" --layout $1 --dtype $2 --rotate \
      --modes auto,$old,dp,cublas --reps 21 --inner 5 --csv $o/$1-$2-$name.csv \
      > $o/$1-$2-$name.txt 2>&1
    echo "$1 $2 $name exit $? at $SECONDS s"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
