#!/usr/bin/env bash
# Session 16, run 69: the partial last tile along m or n loads only its rows (kernels::LoadsOf),
# on top of run 68's narrow operands. Every GPU test (GemmGpu.PartialTilesIgnoreStaleStageRows
# now in gpu_check.sh), the sanitizers, then run 68's build (gpu/old/streamk-bench) and this one
# alternating on every set (auto, dp, cuBLAS; 31 repetitions), twice.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
timeout 240 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -8; grep -c "PartialTilesIgnoreStaleStageRows" $o/check/gpu_tests.log
{ date -u; compute-sanitizer --version | head -2
  f='GemmGpu.SmallShapesEveryMode:GemmGpu.PartialTilesIgnoreStaleStageRows'
  echo "## memcheck"; timeout 200 compute-sanitizer --tool memcheck $g/streamk_gpu_tests --gtest_filter="$f:Mainloop*" 2>&1 | tail -4
  echo "## racecheck"; timeout 150 compute-sanitizer --tool racecheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode' 2>&1 | tail -4
  echo "## synccheck"; timeout 100 compute-sanitizer --tool synccheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode' 2>&1 | tail -4
} > $o/sanitizer.log 2>&1
grep -E "^##|SUMMARY|PASSED|FAILED" $o/sanitizer.log
for pass in 1 2; do
  for b in old new; do
    exe=streamk-bench; [ $b = old ] && exe=old/streamk-bench
    timeout 150 $g/run $exe --set paper,waveq,llm --count 150 --seed 1 --modes auto,dp,cublas \
      --warmup 3 --reps 31 --inner 5 --csv $o/all-$b-$pass.csv > $o/all-$b-$pass.txt 2>/dev/null
    echo "all $b $pass rc $?"
  done
done
for f in $o/all-*-1.txt; do echo "== $f"; sed -n '/# summary/,$p' $f | grep cublas; done
cd $o && tar czf all.tgz * && find . -type f ! -name all.tgz -delete && ls
