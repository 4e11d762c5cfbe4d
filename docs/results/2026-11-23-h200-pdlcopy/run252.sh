#!/usr/bin/env bash
# Session 46, run 252, on the build whose transposing copy issues all of a thread's loads first:
# (1) ncu's copy-kernel durations for three decode rows (nn, tokens copied); (2) run 250's decode
# rows again, nn with the tokens copied against tn, same data-parallel plans; (3) wide M-/N-major
# operands with misaligned rows (nn, nt, tt) as they are and copied first (--repack on), on two
# data-parallel tiles, and cuBLAS; (4) the GPU tests of the copies, TMA and mma.sync mainloops.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
m=docs/results/2026-11-23-h200-mnmajor d=docs/results/2026-11-23-h200-pdlcopy
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
  -k regex:'CopyKernel|StreamKGemm' --launch-count 40 $g/streamk-bench --shapes $d/ncu.txt \
  --layout nn --repack a --modes dp/128x128x64 --warmup 1 --reps 2 --inner 1 \
  > $o/ncu-nn-a.csv 2> $o/ncu-nn-a.err
echo "ncu exit $? at $SECONDS s"
for v in nn-a tn-off; do
  timeout 60 $g/run streamk-bench --shapes $m/shapes.txt --layout ${v%-*} --repack ${v#*-} \
    --modes dp/128x128x64,dp/64x128x64,cublas --reps 15 --inner 5 \
    --csv $o/decode-$v.csv > $o/decode-$v.txt 2>&1
  echo "decode $v exit $? at $SECONDS s"
done
for l in nn nt tt; do
  for r in off on; do
    timeout 90 $g/run streamk-bench --shapes $d/wide2.txt --layout $l --repack $r \
      --modes dp/128x256x64,dp/128x128x64,cublas --reps 15 --inner 5 \
      --csv $o/wide-$l-$r.csv > $o/wide-$l-$r.txt 2>&1
    echo "wide $l $r exit $? at $SECONDS s"
  done
done
f='GemmGpu.NarrowMn*:GemmGpu.Repacked*:GemmGpu.AnyLeading*:GemmGpu.Chained*:GemmGpu.RowCopies*'
timeout 150 $g/run streamk_gpu_tests --gtest_filter="$f" > $o/tests.txt 2>&1
echo "tests exit $? at $SECONDS s"
STREAMK_MAINLOOP=sm80 timeout 150 $g/run streamk_gpu_tests --gtest_filter="$f" > $o/tests-sm80.txt 2>&1
echo "tests sm80 exit $? at $SECONDS s"
grep -hE "^\[  (PASSED|FAILED)|Failure" $o/tests*.txt | head
cd $OUT && tar czf all.tgz r && rm -rf r && ls
