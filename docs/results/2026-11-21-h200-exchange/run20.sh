#!/usr/bin/env bash
# Session 8, run 20: the take of a partial staged through shared memory by cp.async (16 loads in
# flight per thread, TMA kernel), Publish split per operation, no fence.sc before the flag's release. The Stream-K GPU
# tests, then run 19's traces, now with gemm()'s host cost per call and CUDA-graph launch times.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
timeout 200 $g/run streamk_gpu_tests --gtest_filter='GemmGpu.Every*:GemmGpu.PartialWave*:GemmGpu.Deterministic*:GemmGpu.Small*' > $o/tests.txt 2>&1
echo "tests exit $?"; tail -3 $o/tests.txt
T="timeout 60 $g/run streamk-trace --traces 3"
n=0
run() { n=$((n+1)); echo "=== [$n] streamk-trace $*"; $T "$@" --csv $o/csv/$n.csv; }
{
for k in 1024 4096 8192; do
  run 2816 1536 $k --mode dp
  run 2432 1792 $k --mode dp
  run 2432 1792 $k --mode streamk --blocks 132 --reduction deterministic
  run 2432 1792 $k --mode streamk --sk_tiles tail --blocks 132 --reduction separate
  run 2432 1792 $k --mode streamk --sk_tiles tail --blocks 12 --reduction separate
  run 2176 2048 $k --mode streamk
done
} > $o/trace.txt 2>&1
tar czf $o/csv.tgz -C $o csv && rm -rf $o/csv
grep -E "^===|^untraced|^host|^per block|^streamk |^dp |^reduction " $o/trace.txt
