#!/usr/bin/env bash
# Session 6, run 12: the cost model charges misaligned K-major rows (CostModel::misaligned_load).
# The paper set and the K-alignment shapes, auto against dp, split-K and cuBLAS, with the build
# before the change (gpu-b) and after it (gpu), in one call; then the GPU tests of every mode.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
for b in gpu-b gpu; do
  LD_LIBRARY_PATH=$g/../$b/lib timeout 150 $g/../$b/run streamk-bench --set paper --modes auto,dp,splitk,cublas --csv $o/paper-$b.csv > $o/paper-$b.txt 2>/dev/null
  LD_LIBRARY_PATH=$g/../$b/lib timeout 60 $g/../$b/run streamk-bench --shapes $g/kalign-shapes.txt --modes auto,dp,splitk,cublas > $o/kalign-$b.txt 2>/dev/null
  echo "== $b"; grep -E "^paper +(dp|splitk|cublas) |^file +(dp|splitk|cublas) " $o/paper-$b.txt $o/kalign-$b.txt
done
timeout 200 $g/run streamk_gpu_tests --gtest_filter='GemmGpu.Kernel*:GemmGpu.Small*:GemmGpu.Every*' > $o/gpu_tests.log 2>&1; echo "gpu tests exit $?"
tail -3 $o/gpu_tests.log
