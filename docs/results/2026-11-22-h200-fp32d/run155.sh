#!/usr/bin/env bash
# Session 28, run 155, HEAD 76f9d9f (fp32 D's second round restaged box by box). (1) Where fp32 D's
# extra time goes: streamk-trace of three shapes, D fp16 and fp32, alternating. (2) The 3% rule
# with D fp32: the issue's sets (paper: 150 shapes, seed 1), fp16 in, auto, dp and cuBLAS. (3) The
# issue's waveq command.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $o/gpu.txt
for s in "2048 2048 4096 --mode dp" "4096 4096 1024 --mode dp" "5120 2560 1024"; do
  for out in fp16 fp32 fp16 fp32; do
    echo "== streamk-trace $s --out_dtype $out" >> $o/trace.txt
    timeout 30 $g/run streamk-trace $s --out_dtype $out >> $o/trace.txt 2>&1
  done
done
echo "trace exit $?"; grep -c "^==" $o/trace.txt
timeout 100 $g/run streamk-bench --set paper,waveq,llm --count 150 --seed 1 --dtype fp16 \
  --out_dtype fp32 --modes auto,dp,cublas --warmup 3 --reps 15 --inner 5 \
  --csv $o/fp32.csv > $o/fp32.txt 2> $o/fp32.err
echo "fp32 exit $?"; sed -n '/# summary/,$p' $o/fp32.txt
timeout 200 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2> $o/waveq.err
echo "waveq exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
