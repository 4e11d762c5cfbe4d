#!/usr/bin/env bash
# Session 22, run 121 (an experiment, not on main: it ran slower and was reverted): reduction
# blocks sum through the free ring with rolled cp.async loops (Fixup::SumSliceLanded: per round,
# cp.async every live fragment of the slice from as many peers as fit the ring, wait, then add
# them peer by peer into the stage) and defer their departure's atomic to after the stores (this
# build, gpu/) against 0442ec1 (gpu-old/): every GPU test and
# compute-sanitizer on the edge and small-shape tests of this build, streamk-trace of decode GEMMs
# on both, then from CUDA graphs, alternating: the decode rows, the few-tile shapes, the small
# shapes, the llm set; and the waveq set (128 x 256 tiles, whose register spills moved).
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/old.tar.xz
g=$(pwd)/gpu; go=$(pwd)/gpu-old; export LD_LIBRARY_PATH=$g/lib
timeout 240 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -12
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool $g/streamk_gpu_tests --gtest_filter='GemmGpu.Edge*:GemmGpu.SmallShapesEveryMode' > $o/sanitizer-$tool.log 2>&1
  echo "sanitizer $tool exit $?: $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $o/sanitizer-$tool.log | tr '\n' ' ')"
done
t() { echo "=== $1: streamk-trace ${@:2}"; timeout 60 $( [ $1 = old ] && echo $go || echo $g )/run streamk-trace "${@:2}" 2>&1 | grep -v "^    "; }
for b in old new old new; do
  t $b 4096 16 4096
  t $b 1024 16 8192
done > $o/trace.txt
grep -E "^===|graph" $o/trace.txt
d=docs/results/2026-11-22-h200-separate
for pass in 1 2; do
  for b in old new; do
    bb=$g; [ $b = old ] && bb=$go
    for s in decode separate small llm waveq; do
      case $s in
        small) src="--shapes docs/results/2026-11-22-h200-pdl/small-shapes.txt" ;;
        llm|waveq) src="--set $s" ;;
        *) src="--shapes $d/$s-shapes.txt" ;;
      esac
      $bb/run streamk-bench $src --dtype fp16 --graph --modes auto,dp,cublas --warmup 3 --reps 11 \
        --inner 5 --csv $o/graph-$s-$b-$pass.csv > $o/graph-$s-$b-$pass.txt 2> $o/graph-$s-$b-$pass.err
      echo "$s $b $pass exit $? errors $(grep -c ERROR $o/graph-$s-$b-$pass.txt)"
    done
  done
done
cd $o && tar czf misc.tgz check check.txt sanitizer-*.log && rm -rf check check.txt sanitizer-*.log && cd $OUT && tar czf all.tgz r && rm -rf r && ls
