#!/usr/bin/env bash
# Session 28, run 160, HEAD 452b996 (kMinDeepAlignedGain): every GPU test; the issue's waveq
# command; the llm set, fp16 and bf16, auto, dp and cuBLAS (7b.up.m2048 now Stream-K); the shapes
# the rule moves (final-movers.txt names them in deep-aligned-movers.txt), auto and dp.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
timeout 240 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "PASSED|FAILED|exit" $o/check/gpu_tests.log | head -30
timeout 200 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2> $o/waveq.err
echo "waveq exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
for dt in fp16 bf16; do
  timeout 100 $g/run streamk-bench --set llm --dtype $dt --modes auto,dp,cublas --warmup 3 --reps 15 \
    --inner 5 --csv $o/llm-$dt.csv > $o/llm-$dt.txt 2> /dev/null
  echo "llm $dt exit $?"; sed -n '/# summary/,$p' $o/llm-$dt.txt; grep "7b.up.m2048" $o/llm-$dt.txt | head -2
  timeout 100 $g/run streamk-bench --shapes docs/results/2026-11-22-h200-fp32d/deep-aligned-movers.txt \
    --dtype $dt --modes auto,dp --warmup 3 --reps 15 --inner 5 --csv $o/movers-$dt.csv > $o/movers-$dt.txt 2> /dev/null
  echo "movers $dt exit $?"; sed -n '/# summary/,$p' $o/movers-$dt.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
