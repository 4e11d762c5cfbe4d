#!/usr/bin/env bash
# Session 46, run 251: where the ~10 us in front of a GEMM whose tokens are copied goes.
# (1) ncu's kernel durations (serialized launches) for three decode rows, nn with the tokens
# copied and tn; (2) the same rows timed as CUDA-graph replays (no host launch cost) and as plain
# launches; (3) wide operands with misaligned rows, K-major and M-/N-major (tn, nn, nt, tt), auto
# against cuBLAS; (4) what copying both operands costs: n x n x (n + 8), tn, 128 x 256 dp.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-23-h200-pdlcopy
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
(which ncu; ncu --version) > $o/ncu-version.txt 2>&1
for v in nn-a tn-off; do
  timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    -k regex:'CopyKernel|StreamKGemm' --launch-count 40 --target-processes all \
    $g/streamk-bench --shapes $d/ncu.txt --layout ${v%-*} --repack ${v#*-} \
    --modes dp/128x128x64 --warmup 1 --reps 2 --inner 1 > $o/ncu-$v.csv 2> $o/ncu-$v.err
  echo "ncu $v exit $? at $SECONDS s"
done
for v in nn-a tn-off; do
  for gr in false true; do
    timeout 60 $g/run streamk-bench --shapes $d/ncu.txt --layout ${v%-*} --repack ${v#*-} \
      --graph=$gr --modes dp/128x128x64,dp/64x128x64 --reps 21 --inner 5 \
      --csv $o/graph-$v-$gr.csv > $o/graph-$v-$gr.txt 2>&1
    echo "graph $v $gr exit $? at $SECONDS s"
  done
done
for l in tn nn nt tt; do
  timeout 90 $g/run streamk-bench --shapes $d/wide.txt --layout $l --modes auto,cublas \
    --reps 15 --inner 5 --csv $o/wide-$l.csv > $o/wide-$l.txt 2>&1
  echo "wide $l exit $? at $SECONDS s"
done
for r in on off; do
  timeout 90 $g/run streamk-bench --shapes $d/copies.txt --layout tn --repack $r \
    --modes dp/128x256x64 --reps 15 --inner 5 --csv $o/copies-$r.csv > $o/copies-$r.txt 2>&1
  echo "copies $r exit $? at $SECONDS s"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
