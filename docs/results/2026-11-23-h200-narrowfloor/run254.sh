#!/usr/bin/env bash
# Session 47, run 254: the 64 x 128 tile's narrow loads priced above the memory's floor
# (CostModel::narrow_mn_floor_iter_us). Every GPU test (scripts/gpu_check.sh); auto against
# cuBLAS on run 249's decode rows (nn); on 70b.down's 32-byte-aligned rows (down.txt) the plans
# auto weighs there (split-K on 128 x 128, data-parallel on 64 x 128), the tokens as they are
# and copied (nn), and K-major (tn); fp16.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
m=docs/results/2026-11-23-h200-mnmajor d=docs/results/2026-11-23-h200-narrowfloor
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
timeout 60 $g/run streamk-bench --shapes $m/shapes.txt --layout nn --modes auto,cublas \
  --reps 21 --inner 5 --csv $o/decode-nn.csv > $o/decode-nn.txt 2>&1
echo "decode nn exit $? at $SECONDS s"
modes=splitk:2/128x128x64,dp/64x128x64,cublas
for p in 1 2; do
  for v in nn-off nn-a tn-off; do
    timeout 60 $g/run streamk-bench --shapes $d/down.txt --layout ${v%-*} --repack ${v#*-} \
      --modes $modes --reps 21 --inner 5 --csv $o/down-$v-$p.csv > $o/down-$v-$p.txt 2>&1
    echo "down $v $p exit $? at $SECONDS s"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
