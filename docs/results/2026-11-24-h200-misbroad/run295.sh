#!/usr/bin/env bash
# Session 55, run 295: the final planner (misaligned rows: the 128 x 320 tile weighed; where auto
# would run clusters, data-parallel's own pick unless the clusters are estimated 2% under it,
# DataParallelOverClusters). Every GPU test; moved3.txt's 135 moved picks (every move of this
# session's planner changes over 6000 random paper-like shapes and the issue's sets, run 291's
# shapes among them) with the old picks' modes forced in the same passes (tn fp16 twice, tn bf16
# once); then the headline benchmark (docs/results/2026-11-24-h200-headline/run295.sh).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-misbroad
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
fm=auto,dp,dp/256x256x64,streamk/256x256x64,splitk/256x256x64,dp/128x256x64,streamk/128x256x64
fm=$fm,dp/128x192x64,dp/128x128x64,cublas
run() {  # name, extra flags
  local n=$1; shift
  timeout 60 $g/run streamk-bench --shapes $d/moved3.txt --rotate --reps 21 --inner 5 \
    --modes $fm --csv $o/$n.csv "$@" > $o/$n.txt 2>&1
  echo "$n exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/$n.txt
}
run tn-fp16-1 --layout tn
run tn-bf16-1 --layout tn --dtype bf16
run tn-fp16-2 --layout tn
OUT=$OUT/h bash docs/results/2026-11-24-h200-headline/run295.sh
mv $OUT/h/all.tgz $o/headline.tgz
cd $OUT && tar czf all.tgz r && rm -rf r h && ls
