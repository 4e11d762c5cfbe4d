#!/usr/bin/env bash
# Session 25, run 137: a fourth TMA configuration, 192 x 192 tiles on three compute warp groups,
# run where named (Options::tile). (1) Every GPU test (the new MainloopTest configurations and
# GemmGpu.WideTileEveryLayoutModeAndEpilogue among them). (2) The sets, fp16, with the
# new tile forced data-parallel and all-tiles Stream-K beside auto, dp and cuBLAS. (3) The paper
# set's auto timed from CUDA graphs (the GPU's time), HEAD 013b41a (old/) against this build,
# old/new/old/new: run 136's small shapes, which read 1-2 us slower in one pass.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; mkdir -p old && tar xJf gpu-b/old.tar.xz -C old
g=$(pwd)/gpu; go=$(pwd)/old/gpu; export LD_LIBRARY_PATH=$g/lib
timeout 280 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "PASSED|FAILED|exit" $o/check/gpu_tests.log | head -30
timeout 200 $g/run streamk-bench --set waveq,paper,llm --count 150 --seed 1 --dtype fp16 \
  --modes auto,dp,dp/192x192x64,streamk/192x192x64,cublas --warmup 3 --reps 15 --inner 5 \
  --csv $o/wide-fp16.csv > $o/wide-fp16.txt 2> $o/wide-fp16.err
echo "wide exit $?"; sed -n '/# summary/,$p' $o/wide-fp16.txt
for pass in 1 2; do
  for b in old new; do
    bb=$g; [ $b = old ] && bb=$go
    LD_LIBRARY_PATH=$bb/lib timeout 60 $bb/run streamk-bench --set paper --count 150 --seed 1 \
      --dtype fp16 --modes auto --graph --warmup 3 --reps 15 --inner 5 --csv $o/graph-$b-$pass.csv > $o/graph-$b-$pass.txt 2> /dev/null
    echo "graph $b $pass exit $?"
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
