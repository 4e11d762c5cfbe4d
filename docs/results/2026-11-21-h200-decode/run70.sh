#!/usr/bin/env bash
# Session 16, run 70: tensor maps cached per thread (launch.cu) on top of run 69's partial-tile
# loads. Every GPU test; then run 68's build (gpu/old: narrow operands only), run 69's
# (gpu/mid: partial tiles, no cache) and this one alternating on every set (auto, dp, cuBLAS;
# 31 repetitions), twice. (No streamk-trace in this bundle: the three benches filled the 64 MiB.)
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
timeout 240 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -8
for pass in 1 2; do
  for b in old mid new; do
    exe=streamk-bench; [ $b != new ] && exe=$b/streamk-bench
    timeout 150 $g/run $exe --set paper,waveq,llm --count 150 --seed 1 --modes auto,dp,cublas \
      --warmup 3 --reps 31 --inner 5 --csv $o/all-$b-$pass.csv > $o/all-$b-$pass.txt 2>/dev/null
    echo "all $b $pass rc $?"
  done
done
for f in $o/all-*-1.txt; do echo "== $f"; sed -n '/# summary/,$p' $f | grep cublas; done
cd $o && tar czf all.tgz * && find . -type f ! -name all.tgz -delete && ls
