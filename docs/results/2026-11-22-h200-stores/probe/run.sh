#!/usr/bin/env bash
# Session 36: can the TMA unit store rows that start inside a 16-byte chunk? tma_probe.cu builds
# a tensor map per class of rows r = c mod 8 of a 64 x 1000 fp16 matrix with leading dimension
# 1001 (odd: every class's rows start at a different offset within 16 bytes), its base rounded
# down to 16 bytes and its columns shifted to match, and stores one 64 x 8 box per class.
# Arguments: shift (D 0 or 6 bytes past a 16-byte boundary), mode (0: 128-byte swizzle, boxes
# 1024 bytes apart; 1: the boxes 1152 apart; 2: the swizzle phase relative to the box; 3: no
# swizzle; 4: no swizzle, boxes 1040 apart), the box's first column, and the classes to store.
# Built here with:
#   nvcc -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a tma_probe.cu -o tma_probe \
#     -L/usr/local/cuda/lib64/stubs -lcuda
# Run on the H200 (runs of 2026-11-22; probe-swizzled.txt had modes 0-2 only, an earlier build of
# the same file):
for args in "0 0 0 1" "0 0 64 1" "0 0 0 2" "0 0 64 2" "0 1 0 1" "0 1 0 2" "0 2 0 2" "0 0 0 255" \
            "0 1 64 255" "0 2 64 255" "1 0 64 1" "0 0 960 1" "0 0 960 2" "0 1 72 255"; do
  echo "== $args"; ./tma_probe $args 2>&1
done > probe-swizzled.txt
for args in "0 3 0 1" "0 3 0 2" "0 3 64 255" "0 4 64 255" "1 4 64 255" "0 4 960 255" \
            "0 4 72 255"; do
  echo "== $args"; ./tma_probe $args 2>&1
done > probe-unswizzled.txt
