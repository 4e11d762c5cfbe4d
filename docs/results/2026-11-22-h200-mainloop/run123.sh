#!/usr/bin/env bash
# Session 23, run 123: where our kernel's time per k-iteration goes against cuBLAS's on the same
# GPU, at K = 1024 (where the waveq set reads 0.81-0.84 of cuBLAS) and on a large square shape.
# Nsight Compute (--set full, base clocks for both) of one launch each: our data-parallel kernel
# and cuBLAS's, for 5888x2944x1024 (dp on 128 x 256), 1792x2432x1024 (dp on 128 x 128) and
# 8192^3; plus the SASS of the 128 x 256 kernel, for where its register spills are.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
k256='_ZN7streamk7kernels24StreamKGemmKernelSm90TmaI6__halfLb0ELb0ELi256ELi1EEEvNS_4PlanENS0_14GemmKernelArgsEPcNS0_11TmaOperandsE'
cuobjdump -sass -fun "$k256" $g/streamk-bench > $o/k256.sass 2>&1
grep -n -E "LDL|STL" $o/k256.sass > $o/k256-spills.txt; wc -l $o/k256.sass $o/k256-spills.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $o/smi.txt
for s in 5888x2944x1024 1792x2432x1024 8192x8192x8192; do
  for m in dp cublas; do
    if [ $m = dp ]; then k=regex:StreamKGemmKernel; else k='regex:nvjet|gemm|xmma|cutlass'; fi
    timeout 200 ncu --set full -k "$k" -c 1 -o $o/$s-$m \
      $g/streamk-bench --shape $s --modes $m --warmup 0 --reps 1 --inner 1 > $o/$s-$m.log 2>&1
    echo "$s $m ncu rc $?"
    ncu -i $o/$s-$m.ncu-rep --page details > $o/$s-$m.txt 2>&1
    ncu -i $o/$s-$m.ncu-rep --page raw --csv > $o/$s-$m-raw.csv 2>&1
  done
done
$g/streamk-bench --shape 5888x2944x1024,1792x2432x1024,8192x8192x8192 --modes auto,dp,cublas --reps 15 > $o/bench.txt 2>&1
cat $o/bench.txt
$g/streamk-trace 5888 2944 1024 --mode dp > $o/trace-5888.txt 2>&1; head -40 $o/trace-5888.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
