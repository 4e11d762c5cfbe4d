#!/usr/bin/env bash
# Session 28, run 154: fp32 D's second round restaged box by box as the TMA unit reads the first
# round's boxes (one bulk group per box), instead of after all of them. (1) Every GPU test. (2) The
# issue's sets, fp16 in, D fp32 and fp16, auto and cuBLAS, this build against 435586b's (base/) in
# alternating passes, base/new twice (as run 150).
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; mkdir -p base && tar xJf gpu-b/base.tar.xz -C base
g=$(pwd)/gpu; gb=$(pwd)/base/gpu; export LD_LIBRARY_PATH=$g/lib
timeout 240 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "PASSED|FAILED|exit" $o/check/gpu_tests.log | head -30
for pass in 1 2; do
  for out in fp32 fp16; do
    for b in base new; do
      bb=$g; [ $b = base ] && bb=$gb
      LD_LIBRARY_PATH=$bb/lib timeout 60 $bb/run streamk-bench --set paper,waveq,llm --count 150 \
        --seed 1 --dtype fp16 --out_dtype $out --modes auto,cublas --warmup 3 --reps 15 --inner 5 \
        --csv $o/ab-$out-$b-$pass.csv > $o/ab-$out-$b-$pass.txt 2> /dev/null
      echo "ab $out $b $pass exit $?"; grep -E "cublas" $o/ab-$out-$b-$pass.txt | tail -3
    done
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
