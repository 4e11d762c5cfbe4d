#!/usr/bin/env bash
# Session 21, run 110: as run 109 (only partial stores and separate reductions skip fragments outside D),
# with the live fragments of a wgmma thread counted in closed form (this build, gpu/) against 14fb8d8
# (gpu-old/), from CUDA graphs, fp16, alternating; then the edge tests in every mainloop.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/old.tar.xz
g=$(pwd)/gpu; go=$(pwd)/gpu-old
export LD_LIBRARY_PATH="$g/lib"
d=docs/results/2026-11-22-h200-separate
m=auto,dp,splitk:3,splitk:4@separate,splitk:8@separate,streamk,cublas
for pass in 1 2 3; do
  for b in old new; do
    bb=$g; [ $b = old ] && bb=$go
    for s in decode separate llm; do
      src="--shapes $d/$s-shapes.txt"; [ $s = llm ] && src="--set llm"
      $bb/run streamk-bench $src --dtype fp16 --graph --modes $m --warmup 3 --reps 15 --inner 5 \
        --csv $o/graph-$s-$b-$pass.csv > $o/graph-$s-$b-$pass.txt 2> $o/graph-$s-$b-$pass.err
      echo "$s $b $pass exit $? errors $(grep -c ERROR $o/graph-$s-$b-$pass.txt)"
    done
  done
done
for ml in "" sm80 sm90-cpasync; do
  STREAMK_MAINLOOP=$ml timeout 120 $g/run streamk_gpu_tests --gtest_filter='GemmGpu.Edge*:GemmGpu.Every*' > $o/edge-$ml.log 2>&1
  echo "mainloop '$ml' tests exit $?"; grep -E "PASSED|FAILED" $o/edge-$ml.log | head -5
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
