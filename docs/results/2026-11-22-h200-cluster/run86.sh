#!/usr/bin/env bash
# Session 18, run 86: tma_multicast_probe, the 128x256 load pattern with and without 2-block
# clusters that multicast B, the cluster arrival at block scope, K aligned, misaligned and 16 mod 32; twice.
set -u
o=$OUT/r; mkdir -p $o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
for i in 1 2; do gpu-probe/tma_multicast_probe > $o/multicast-$i.txt 2>&1; echo "rc $?"; cat $o/multicast-$i.txt; done
