#!/usr/bin/env bash
# Session 32, run 172: measurement only (HEAD 63ec23a's build). Few-tile shapes against split
# counts past kMaxAutoSplits and separate reductions on both 128 x 128 and 64 x 128 tiles, and the
# decode rows' and few-tile shapes' split-K on 64 x 128 tiles; back to back and (deep, decode)
# from CUDA graphs.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-22-h200-separate
s=docs/results/2026-11-22-h200-deep
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
deep=auto,cublas
for t in 128x128x64 64x128x64; do
  for k in 8 16 32 64; do deep=$deep,splitk:$k/$t@separate; done
  deep=$deep,streamk:132/$t@separate
done
dec=auto,cublas,dp/64x128x64,splitk:2/64x128x64,splitk:3/64x128x64,splitk:4/64x128x64
dec=$dec,splitk:2/64x128x64@separate,splitk:4/64x128x64@separate,splitk:8/64x128x64@separate
dec=$dec,splitk:4/128x128x64@separate,splitk:8/128x128x64@separate
few=auto,cublas,dp/64x128x64,splitk:2/64x128x64,splitk:3/64x128x64
few=$few,splitk:2/64x128x64@separate,splitk:4/64x128x64@separate,splitk:8/64x128x64@separate
few=$few,splitk:4/128x128x64@separate,splitk:8/128x128x64@separate
run() {  # name shapes modes extra...
  local n=$1 f=$2 m=$3; shift 3
  timeout 150 $g/run streamk-bench --shapes $f --dtype fp16 --modes $m --csv $o/$n.csv "$@" \
    > $o/$n.txt 2> $o/$n.err
  echo "$n exit $? errors $(grep -c -E 'ERROR|WRONG' $o/$n.txt)"; sed -n '/# summary/,$p' $o/$n.txt
}
run deep $s/deep-shapes.txt $deep --reps 15
run deep-graph $s/deep-shapes.txt $deep --graph --warmup 3 --reps 15 --inner 5
run decode $d/decode-shapes.txt $dec --reps 15
run decode-graph $d/decode-shapes.txt $dec --graph --warmup 3 --reps 15 --inner 5
run few $d/separate-shapes.txt $few --reps 15
run few-graph $d/separate-shapes.txt $few --graph --warmup 3 --reps 15 --inner 5
cd $OUT && tar czf all.tgz r && rm -rf r && ls
