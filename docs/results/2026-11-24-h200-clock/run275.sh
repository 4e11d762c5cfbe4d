#!/usr/bin/env bash
# Session 51, run 275: the seven picks of every tile Stream-K on 128 x 128 over fewer tiles than
# blocks that CostModel::few_tiles_streamk_gain moves (the grid of few_tiles.py's scan), with the
# old pick forced (streamk:132/128x128x64), data-parallel, the 128 x 256 split-K two of them move
# to (splitk:3/128x256x64) and cuBLAS, cold caches: tn fp16 three passes, nn fp16 one. No GPU
# test (a planner constant; run 274 passed every GPU test on the kernels).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
rows="--shape 2048x640x8192 --shape 2048x640x14336 --shape 2048x768x14336 --shape 4096x384x14336"
rows="$rows --shape 5120x256x8192 --shape 5120x256x14336 --shape 11008x96x14336"
fm=auto,dp,streamk:132/128x128x64,dp/128x128x64,splitk:3/128x256x64,cublas
for run in "tn 1" "tn 2" "tn 3" "nn 1"; do
  set -- $run
  timeout 100 $g/run streamk-bench $rows --layout $1 --rotate --modes $fm --reps 21 --inner 5 \
    --csv $o/few-$1-$2.csv > $o/few-$1-$2.txt 2>&1
  echo "$1 pass $2 exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/few-$1-$2.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
