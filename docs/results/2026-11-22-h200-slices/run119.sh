#!/usr/bin/env bash
# Session 22, run 119: the mapping divides by multiplication (this build, gpu/) against HEAD
# 47ed2f8 (gpu-old/): every GPU test on this build, then streamk-trace of a decode GEMM, a tiny one
# and a data-parallel one on both builds. Run from the repository root with gpu-b/ carried.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/old.tar.xz
g=$(pwd)/gpu; go=$(pwd)/gpu-old; export LD_LIBRARY_PATH=$g/lib
timeout 330 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -12
t() { echo "=== $1: streamk-trace ${@:2}"; timeout 60 $( [ $1 = old ] && echo $go || echo $g )/run streamk-trace "${@:2}" 2>&1 | grep -v "^    "; }
for b in old new old new; do
  t $b 4096 16 4096
  t $b 128 128 64
  t $b 2432 1792 1024 --mode dp
done > $o/trace.txt
grep -E "^===|graph" $o/trace.txt
cd $o && tar czf misc.tgz check check.txt && rm -rf check check.txt && cd $OUT && tar czf all.tgz r && rm -rf r && ls
