#!/usr/bin/env bash
# Session 30, run 166: run 165's last-peer reduction with the last peer summing only the tile's
# columns inside D (a decode projection's 16 of 128 in one round of loads, as a separate
# reduction's slice does) and no passes of rows past D. The GPU tests that exercise partials
# and reductions; decode rows and the llm set from CUDA graphs (fp16), each split count reduced
# both ways, two alternating passes; traces of 16 x 4096 x 4096 both ways.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-22-h200-separate
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
timeout 200 $g/run streamk_gpu_tests --gtest_filter='GemmGpu.Every*:GemmGpu.Edge*:GemmGpu.Partial*:GemmGpu.Deterministic*:GemmGpu.CudaGraph*:GemmGpu.Forced*:GemmGpu.Small*' > $o/tests.log 2>&1
echo "tests exit $?"; grep -E "PASSED|FAILED" $o/tests.log | head
m=auto,splitk:4@separate,splitk:4@last-peer,splitk:8@separate,splitk:8@last-peer,splitk:16@separate,splitk:16@last-peer,cublas
for pass in 1 2; do
  timeout 100 $g/run streamk-bench --shapes $d/decode-shapes.txt --dtype fp16 --graph --modes $m \
    --warmup 3 --reps 15 --inner 5 --csv $o/graph-decode-$pass.csv > $o/graph-decode-$pass.txt 2> $o/graph-decode-$pass.err
  echo "decode pass $pass exit $? errors $(grep -c ERROR $o/graph-decode-$pass.txt)"
  timeout 120 $g/run streamk-bench --set llm --dtype fp16 --graph --modes auto,splitk@separate,splitk@last-peer,cublas \
    --warmup 3 --reps 15 --inner 5 --csv $o/graph-llm-$pass.csv > $o/graph-llm-$pass.txt 2> $o/graph-llm-$pass.err
  echo "llm pass $pass exit $? errors $(grep -c ERROR $o/graph-llm-$pass.txt)"
done
sed -n '/# summary/,$p' $o/graph-decode-2.txt $o/graph-llm-2.txt
for r in separate last-peer; do
  timeout 60 $g/run streamk-trace 4096 16 4096 --mode splitk --splits 4 --reduction $r > $o/trace-dec-$r.txt 2>&1
  echo "== $r"; grep -h -E "graph|^span|per piece" $o/trace-dec-$r.txt
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
