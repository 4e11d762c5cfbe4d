#!/usr/bin/env bash
# Session 35, run 189: the copying warp again, now issuing only the rows' bulk copies (the compute
# warps store the ends, as in run 180), chosen by STREAMK_ROW_COPIES=warp in one binary; without
# it the compute warps issue the copies (session 34's kernel). GPU tests of D's rows in both;
# session 33's unaligned shapes packed, fp16 twice and bf16 once, alternating; GPT-2's logits;
# streamk-trace of rows of 7 elements, of 1023 and of 50257 in both; the issue's waveq command.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
s=docs/results/2026-11-22-h200-anyld/unaligned-shapes.txt
v=docs/results/2026-11-22-h200-rows/vocab-shapes.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
f='GemmGpu.RowCopies*:GemmGpu.AnyLeading*:GemmGpu.Epilogue*'
for mode in compute warp; do
  STREAMK_ROW_COPIES=$mode timeout 200 $g/run streamk_gpu_tests --gtest_filter="$f" \
    > $o/tests-$mode.log 2>&1
  echo "tests $mode exit $?"; grep -E "PASSED|FAILED" $o/tests-$mode.log | head
done
for pass in 1 2; do
  for mode in compute warp; do
    for dt in fp16 bf16; do
      [[ $pass == 2 && $dt == bf16 ]] && continue
      STREAMK_ROW_COPIES=$mode timeout 100 $g/run streamk-bench --shapes $s --packed --dtype $dt \
        --modes auto,dp --warmup 3 --reps 15 --inner 5 --csv $o/packed-$dt-$mode-$pass.csv \
        > $o/packed-$dt-$mode-$pass.txt 2> $o/packed-$dt-$mode-$pass.err
      echo "packed $dt $mode $pass exit $?"
    done
    STREAMK_ROW_COPIES=$mode timeout 60 $g/run streamk-bench --shapes $v --packed \
      --modes auto --warmup 3 --reps 31 --inner 5 --csv $o/vocab-$mode-$pass.csv \
      > $o/vocab-$mode-$pass.txt 2> $o/vocab-$mode-$pass.err
    echo "vocab $mode $pass exit $?"
  done
done
for mode in compute warp; do
  for sh in "11008 7 4096" "1023 1023 1023" "512 50257 768" "4096 50257 768"; do
    echo "=== $mode $sh"
    STREAMK_ROW_COPIES=$mode timeout 60 $g/run streamk-trace $sh 2>&1 |
      grep -E "checked|untraced|per block|pieces"
  done
done > $o/traces.txt
cat $o/traces.txt
timeout 150 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  > $o/waveq-issue-command.txt 2> $o/waveq.err
echo "waveq exit $?"; sed -n "/# summary/,\$p" $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
