#!/usr/bin/env bash
# Session 22, run 115: where a decode GEMM's time goes (HEAD 47ed2f8's build): streamk-trace of the
# decode rows under auto's plan, more splits, one reduction slice, and data-parallel, with the
# pieces of auto's launch as CSV. Run from the repository root with gpu-b/ carried.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $o/gpu.txt
t() { echo "=== streamk-trace $*"; timeout 60 $g/run streamk-trace "$@" 2>&1 | grep -v "^    "; }
{
t 4096 16 4096 --csv $o/dec-m16-auto.csv
t 4096 16 4096 --mode splitk --splits 4 --reduction separate --reduction_slices 1
t 4096 16 4096 --mode splitk --splits 8 --reduction separate
t 4096 16 4096 --mode splitk --splits 4 --reduction deterministic
t 4096 16 4096 --mode dp
t 4096 16 11008 --csv $o/dec-m16-k11008-auto.csv
t 4096 16 11008 --mode dp
t 1024 16 8192
t 4096 128 4096
} > $o/trace.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
