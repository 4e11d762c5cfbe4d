#!/usr/bin/env bash
# Session 53, run 285: auto with the sixth tile (128 x 320 data-parallel where one round of its
# tiles holds the problem, kMinBroadTileGain). The 61 moved picks (moved.txt: 16 of the prefill
# grid, 45 random paper-like shapes) with every old pick forced in the same pass (tn fp16 twice,
# nn fp16 and tn bf16 once); the issue's waveq command and the paper, llm sets against dp and
# cuBLAS. (The moved runs stopped at a bad line of moved.txt, since rewritten for run 286; the
# sets ran on a build that also weighed the sixth tile on misaligned rows.)
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-broad
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
fm=auto,dp,dp/128x320x64,dp/128x192x64,dp/128x128x64,dp/128x256x64,streamk/128x256x64
fm=$fm,streamk/128x128x64,streamk-tail/128x256x64,cublas
run() {  # name, extra flags
  local n=$1; shift
  timeout 150 $g/run streamk-bench --shapes $d/moved.txt --rotate --modes $fm --reps 21 \
    --inner 5 --csv $o/$n.csv "$@" > $o/$n.txt 2>&1
  echo "$n exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/$n.txt
}
run tn-fp16-1 --layout tn
run nn-fp16-1 --layout nn
timeout 120 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  --csv $o/waveq-issue-command.csv > $o/waveq-issue-command.txt 2>&1
echo "waveq exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/waveq-issue-command.txt
for s in paper llm; do
  timeout 150 $g/run streamk-bench --set $s --modes auto,dp,cublas --csv $o/$s.csv \
    > $o/$s.txt 2>&1
  echo "$s exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/$s.txt
done
run tn-bf16-1 --layout tn --dtype bf16
run tn-fp16-2 --layout tn
cd $OUT && tar czf all.tgz r && rm -rf r && ls
