#!/usr/bin/env bash
# Session 21, run 107: split-K partials that carry only D's rows and columns (this build, gpu/)
# against the same planner with whole-tile partials (14fb8d8, gpu-old/), alternating, from CUDA
# graphs and back to back, fp16; then every GPU test on this build.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/old.tar.xz
g=$(pwd)/gpu; go=$(pwd)/gpu-old
export LD_LIBRARY_PATH="$g/lib"
d=docs/results/2026-11-22-h200-separate
m=auto,dp,splitk:3,splitk:4@separate,splitk:8@separate,streamk,cublas
nvidia-smi --query-gpu=name,driver_version --format=csv > $o/gpu.txt
for t in graph launch; do
  f=""; [ $t = graph ] && f=--graph
  for pass in 1 2; do
    for b in old new; do
      bb=$g; [ $b = old ] && bb=$go
      for s in decode separate llm; do
        src="--shapes $d/$s-shapes.txt"; [ $s = llm ] && src="--set llm"
        $bb/run streamk-bench $src --dtype fp16 $f --modes $m --warmup 3 --reps 15 --inner 5 \
          --csv $o/$t-$s-$b-$pass.csv > $o/$t-$s-$b-$pass.txt 2> $o/$t-$s-$b-$pass.err
        echo "$t $s $b $pass exit $? errors $(grep -c ERROR $o/$t-$s-$b-$pass.txt)"
      done
    done
  done
done
timeout 300 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "gpu_check exit $?"
tail -25 $o/check.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
