#!/usr/bin/env bash
# Session 22, run 116: where a separate reduction block's time goes, with an instrumented build
# (not on main: ReductionBlock's trace marks moved so that begin = the block reaches its work,
# "mainloop" = its mapping, wait, "fixup" = the sum into the stage, "epilogue" = the store of D).
# And which CUDA binary tools the device machine has, with the kernels' code sizes.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/exp.tar.xz; g=$(pwd)/gpu-exp; export LD_LIBRARY_PATH=$g/lib
ls /usr/local/cuda/bin > $o/cuda-bin.txt 2>&1; which cuobjdump nvdisasm ncu nsys >> $o/cuda-bin.txt 2>&1
t() { echo "=== streamk-trace $*"; timeout 60 $g/run streamk-trace "$@" 2>&1 | grep -v "^    "; }
{
t 4096 16 4096 --csv $o/dec-m16-auto.csv
t 1024 16 8192 --csv $o/dec-m16-n1024-auto.csv
t 4096 128 4096 --csv $o/dec-m128-auto.csv
} > $o/trace.txt
cb=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
exe=$(ls $g/bin/* 2>/dev/null | head -1); [ -z "$exe" ] && exe=$(find $g -name 'streamk-trace*' -type f | head -1)
echo "exe $exe cuobjdump $cb" >> $o/cuda-bin.txt
[ -n "$cb" ] && $cb -elf "$exe" 2>&1 | grep -E "^\s*\[.*\.text\." > $o/text-sizes.txt
[ -n "$cb" ] && $cb -res-usage "$exe" > $o/res-usage.txt 2>&1
cd $OUT && tar czf all.tgz r && rm -rf r && ls
