#!/usr/bin/env bash
# Session 20, run 99: the host cost of a launch's calls (probe/host_cost_probe.cu) and of gemm()
# and its public parts (probe/host_cost_gemm.cc, built against libstreamk.a and
# libstreamk_tools.a like the tools), and streamk-trace's host line for two shapes.
set -u
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu
$g/run host_cost_probe
$g/run host_cost_gemm
for s in "128 128 64" "2816 1536 1024 --mode dp"; do $g/run streamk-trace $s | grep -E "^untraced|^host"; done
