#!/usr/bin/env bash
# Session 17, run 76: tma_rows_probe (probe/tma_rows_probe.cu): TMA row streaming by tensor-map
# variant and K alignment; then ncu's L2 request and sector counts for each launch.
set -u
o=$OUT/r; mkdir -p $o
gpu-probe/tma_rows_probe 4096 8 > $o/probe.txt 2>&1; echo "probe rc $?"; cat $o/probe.txt
gpu-probe/tma_rows_probe 4096 8 > $o/probe2.txt 2>&1; echo "probe2 rc $?"
M="gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_requests_op_read.sum,dram__bytes_read.sum"
timeout 200 ncu --clock-control none --metrics $M --csv gpu-probe/tma_rows_probe 4096 2 > $o/ncu.csv 2> $o/ncu.err; echo "ncu rc $?"
wc -l $o/ncu.csv
