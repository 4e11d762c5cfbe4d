#!/usr/bin/env bash
# Session 22, run 117: the SASS of the 128 x 128 fp16 TMA kernel (HEAD 47ed2f8's build), to size
# the code a reduction block runs cold (this machine has no cuobjdump).
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; g=$(pwd)/gpu
cuobjdump -sass -fun '_ZN7streamk7kernels24StreamKGemmKernelSm90TmaI6__halfLb0ELb0ELi128ELi1EEEvNS_4PlanENS0_14GemmKernelArgsEPcNS0_11TmaOperandsE' $g/streamk-trace > $o/k128.sass 2>&1
cuobjdump -sass -fun '_ZN7streamk7kernels24StreamKGemmKernelSm90TmaI6__halfLb0ELb0ELi256ELi1EEEvNS_4PlanENS0_14GemmKernelArgsEPcNS0_11TmaOperandsE' $g/streamk-trace > $o/k256.sass 2>&1
wc -l $o/*.sass
cd $OUT && tar czf all.tgz r && rm -rf r && ls
