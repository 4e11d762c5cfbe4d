#!/usr/bin/env bash
# Session 60, run 313: the headline benchmark on the final build (sessions 56-59 changed the
# planner since run 295): scripts/gpu_bench.sh (paper, waveq and llm sets, every mode and cuBLAS,
# 31 repetitions), fp16 and bf16; then the llm set cold (--rotate), auto, dp and cuBLAS.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv; } > $o/gpu.txt 2>&1
for dt in fp16 bf16; do
  timeout 250 bash scripts/gpu_bench.sh $g $o $dt; echo "bench $dt exit $? at $SECONDS s"
done
for dt in fp16 bf16; do
  timeout 40 $g/run streamk-bench --set llm --dtype $dt --rotate --modes auto,dp,cublas \
    --reps 21 --inner 5 --csv $o/llm-cold-$dt.csv > $o/llm-cold-$dt.txt 2> $o/llm-cold-$dt.err
  echo "llm cold $dt exit $? at $SECONDS s"; sed -n '/# summary/,$p' $o/llm-cold-$dt.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
