#!/usr/bin/env bash
# Session 17, run 78: tma_pair_probe with each operand's rows padded to 64 or 32 elements apart
# (the repacked layouts), K aligned, misaligned and 16 mod 32.
set -u
o=$OUT/r; mkdir -p $o
gpu-probe/tma_pair_probe > $o/pair.txt 2>&1; echo "rc $?"; cat $o/pair.txt
