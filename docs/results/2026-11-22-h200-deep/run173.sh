#!/usr/bin/env bash
# Session 32, run 173: the change (split-K past 16 ways with a separate reduction; the 64 x 128
# tile's exchange terms refitted and its separate reduction weighed) against the build before it
# (63ec23a, run 172's), alternating old, new, old, new: auto and cuBLAS on the deep, decode,
# few-tile and small shapes, back to back and from CUDA graphs. Then every GPU test and the
# benchmark behind docs/performance.md's Results table on the new build, fp16 and bf16.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
mkdir -p old && tar xJf gpu-b/old.tar.xz -C old
d=docs/results/2026-11-22-h200-separate
s=docs/results/2026-11-22-h200-small
e=docs/results/2026-11-22-h200-deep
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
for pass in 1 2; do
  for b in old new; do
    if [ $b = old ]; then g=$(pwd)/old/gpu; else g=$(pwd)/gpu; fi
    export LD_LIBRARY_PATH=$g/lib
    for f in $e/deep-shapes.txt $d/decode-shapes.txt $d/separate-shapes.txt $s/small-shapes.txt; do
      n=$(basename $f .txt)-$b-$pass
      timeout 100 $g/run streamk-bench --shapes $f --dtype fp16 --modes auto,cublas --reps 15 \
        --csv $o/$n.csv > $o/$n.txt 2> $o/$n.err
      echo "$n exit $? errors $(grep -c -E 'ERROR|WRONG' $o/$n.txt)"
      timeout 100 $g/run streamk-bench --shapes $f --dtype fp16 --modes auto,cublas --graph \
        --warmup 3 --reps 15 --inner 5 --csv $o/graph-$n.csv > $o/graph-$n.txt 2> $o/graph-$n.err
      echo "graph-$n exit $? errors $(grep -c -E 'ERROR|WRONG' $o/graph-$n.txt)"
    done
  done
done
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
GPU_TEST_TIMEOUT=240 timeout 400 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
for dt in fp16 bf16; do
  timeout 200 bash scripts/gpu_bench.sh $g $o $dt; echo "bench $dt exit $?"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
