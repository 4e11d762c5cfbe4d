#!/usr/bin/env bash
# Session 22, run 120: this build (gpu/: the mapping divides by multiplication) against HEAD
# 47ed2f8 (gpu-old/), alternating, timed from CUDA graphs (the GPU's time): the small shapes, the
# decode rows, the few-tile shapes and the llm set, auto, dp and cuBLAS (the machine's drift); then
# the issue's waveq command on this build, back to back.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/old.tar.xz
g=$(pwd)/gpu; go=$(pwd)/gpu-old; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-22-h200-separate
for pass in 1 2; do
  for b in old new; do
    bb=$g; [ $b = old ] && bb=$go
    for s in small decode separate llm; do
      case $s in
        small) src="--shapes docs/results/2026-11-22-h200-pdl/small-shapes.txt" ;;
        llm) src="--set llm" ;;
        *) src="--shapes $d/$s-shapes.txt" ;;
      esac
      $bb/run streamk-bench $src --dtype fp16 --graph --modes auto,dp,cublas --warmup 3 --reps 15 \
        --inner 5 --csv $o/graph-$s-$b-$pass.csv > $o/graph-$s-$b-$pass.txt 2> $o/graph-$s-$b-$pass.err
      echo "$s $b $pass exit $? errors $(grep -c ERROR $o/graph-$s-$b-$pass.txt)"
    done
  done
done
$g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2> /dev/null
echo "waveq command exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
