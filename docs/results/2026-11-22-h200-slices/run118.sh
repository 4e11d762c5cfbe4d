#!/usr/bin/env bash
# Session 22, run 118: Nsight Compute's warp-stall sampling of one decode GEMM (16x4096x4096, auto:
# split-K by 4 with a separate reduction) on HEAD 47ed2f8's build, per SASS instruction, to see
# what a reduction block waits on (instruction fetch, the L2, barriers).
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
timeout 240 ncu --section WarpStateStats --section SourceCounters --section LaunchStats \
  -k regex:StreamKGemmKernelSm90Tma -c 1 -o $o/prof \
  $g/streamk-bench --shape 16x4096x4096 --modes auto --warmup 0 --reps 1 --inner 1 > $o/ncu.log 2>&1
echo "ncu rc $?"; tail -5 $o/ncu.log
ncu -i $o/prof.ncu-rep --page details > $o/details.txt 2>&1
ncu -i $o/prof.ncu-rep --page source --csv --print-source sass > $o/source.csv 2>&1
wc -l $o/*.txt $o/*.csv
cd $OUT && tar czf all.tgz r && rm -rf r && ls
