#!/usr/bin/env bash
# Session 17, run 77: tma_pair_probe (probe/tma_pair_probe.cu): the 128x256 GEMM's TMA load
# pattern on 132 SMs without the math, aligned and K-misaligned; ncu counts for the first variant.
set -u
o=$OUT/r; mkdir -p $o
gpu-probe/tma_pair_probe > $o/pair.txt 2>&1; echo "rc $?"; cat $o/pair.txt
M="gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_requests_op_read.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct"
timeout 200 ncu --clock-control none --metrics $M --csv -c 45 gpu-probe/tma_pair_probe > $o/ncu-pair.csv 2> $o/ncu.err; echo "ncu rc $?"
