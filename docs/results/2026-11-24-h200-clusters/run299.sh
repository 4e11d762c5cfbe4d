#!/usr/bin/env bash
# Session 56, run 299: the planner with the clusters' padded columns priced against
# data-parallel's pick (padded_columns_load 0.8, split-K's plans priced too). Every GPU test;
# every pick that moves (moved_all.txt: that build's moves.py output and run 298's moved shapes,
# 122, all from clusters to data-parallel's pick; moved.txt, moved_extra.txt and moved298.txt now
# hold the final build's, moved_final.txt) timed in auto (the new pick), dp, and the clusters'
# three modes (the old pick among them), tn fp16 twice and bf16 once.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-clusters
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
fm=auto,dp,dp/256x256x64,streamk/256x256x64,splitk/256x256x64,cublas
run() {  # name, extra flags
  local n=$1; shift
  timeout 100 $g/run streamk-bench --shapes $d/moved_all.txt --rotate --reps 21 --inner 5 \
    --modes $fm --csv $o/$n.csv "$@" > $o/$n.txt 2>&1
  echo "$n exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/$n.txt
}
run tn-fp16-1 --layout tn
run tn-bf16-1 --layout tn --dtype bf16
run tn-fp16-2 --layout tn
cd $OUT && tar czf all.tgz r && rm -rf r && ls
