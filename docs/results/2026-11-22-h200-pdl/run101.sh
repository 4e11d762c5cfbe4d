#!/usr/bin/env bash
# Session 20, run 101: the host cost of a launch by the size of the kernel's parameters
# (probe/param_size_probe.cu), with and without the programmatic attribute.
set -u
gpu-b/param_size_probe | tee $OUT/run101.txt
