#!/usr/bin/env bash
# Session 16, run 68: narrow operands loaded only as far as they reach (kernels::LoadOf). Every
# GPU test (with GemmGpu.NarrowOperandsIgnoreStaleStageRows), the sanitizers on the new test and
# the small shapes, then the build before (gpu/old/streamk-bench, run 66's) and this one
# alternating on the decode shapes and the llm set (31 repetitions), and a trace of 70b.up.m16.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o; d=$(pwd)/docs/results/2026-11-21-h200-decode
export LD_LIBRARY_PATH="$g/lib"
timeout 240 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -8
timeout 100 $g/run streamk_gpu_tests --gtest_filter='GemmGpu.NarrowOperands*' > $o/narrow-test.txt 2>&1; echo "narrow test rc $?"; tail -3 $o/narrow-test.txt
{ date -u; compute-sanitizer --version | head -2
  f='GemmGpu.SmallShapesEveryMode:GemmGpu.NarrowOperandsIgnoreStaleStageRows'
  echo "## memcheck"; timeout 200 compute-sanitizer --tool memcheck $g/streamk_gpu_tests --gtest_filter="$f:Mainloop*" 2>&1 | tail -4
  echo "## racecheck"; timeout 150 compute-sanitizer --tool racecheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode' 2>&1 | tail -4
  echo "## synccheck"; timeout 100 compute-sanitizer --tool synccheck $g/streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode' 2>&1 | tail -4
} > $o/sanitizer.log 2>&1
grep -E "^##|SUMMARY|PASSED|FAILED" $o/sanitizer.log
m=auto,dp,streamk,splitk,cublas
for pass in 1 2; do
  for b in old new; do
    exe=streamk-bench; [ $b = old ] && exe=old/streamk-bench
    timeout 90 $g/run $exe --shapes $d/decode-shapes.txt --modes $m --warmup 3 --reps 31 --inner 5 \
      --csv $o/decode-$b-$pass.csv > $o/decode-$b-$pass.txt 2>/dev/null; echo "decode $b $pass rc $?"
    timeout 120 $g/run $exe --set llm --modes auto,dp,cublas --warmup 3 --reps 31 --inner 5 \
      --csv $o/llm-$b-$pass.csv > $o/llm-$b-$pass.txt 2>/dev/null; echo "llm $b $pass rc $?"
  done
done
timeout 30 $g/run streamk-trace 28672 16 8192 --mode dp --tile 128x128x64 > $o/trace.txt 2>&1; echo "trace rc $?"
grep -E "untraced|mainloop fit" $o/trace.txt
for f in $o/decode-*-1.txt $o/llm-*-1.txt; do echo "== $f"; sed -n '/# summary/,$p' $f | grep cublas; done
cd $o && tar czf all.tgz * && find . -type f ! -name all.tgz -delete && ls
