#!/usr/bin/env bash
# Session 55, run 294 (called by ../2026-11-24-h200-misbroad/run294.sh after its GPU tests): the
# headline benchmark on this session's final build (sessions 49-55 changed the planner and kernels
# since run 258): scripts/gpu_bench.sh (paper, waveq and llm sets, every mode and cuBLAS), fp16 and
# bf16; then the llm set cold (--rotate), auto, dp and cuBLAS.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
for dt in fp16 bf16; do
  timeout 250 bash scripts/gpu_bench.sh $g $o $dt; echo "bench $dt exit $? at $SECONDS s"
done
for dt in fp16 bf16; do
  timeout 40 $g/run streamk-bench --set llm --dtype $dt --rotate --modes auto,dp,cublas \
    --reps 21 --inner 5 --csv $o/llm-cold-$dt.csv > $o/llm-cold-$dt.txt 2> $o/llm-cold-$dt.err
  echo "llm cold $dt exit $? at $SECONDS s"; sed -n '/# summary/,$p' $o/llm-cold-$dt.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
