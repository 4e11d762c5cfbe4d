#!/usr/bin/env bash
# Session 35, run 190: the launch picks who issues the rows' bulk copies (RowCopiesOf: the
# copying warp where every block finishes at least two tiles). Every GPU test (RowCopies* with
# both forced); session 33's unaligned shapes packed and padded, the launch's pick ("auto",
# with cuBLAS) against STREAMK_ROW_COPIES=compute (session 34's kernel), alternating, fp16 twice
# and bf16 once; GPT-2's logits the same way; streamk-trace; the llm set and the issue's waveq
# command (aligned shapes: the TMA store, unchanged).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
s=docs/results/2026-11-22-h200-anyld/unaligned-shapes.txt
v=docs/results/2026-11-22-h200-rows/vocab-shapes.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 500 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
for pass in 1 2; do
  for copies in auto compute; do
    for dt in fp16 bf16; do
      [[ $pass == 2 && $dt == bf16 ]] && continue
      for pack in packed padded; do
        flag=""; [[ $pack == packed ]] && flag="--packed"
        modes=auto,dp; [[ $pass == 1 && $copies == auto ]] && modes=auto,dp,cublas
        env=""; [[ $copies == compute ]] && env="STREAMK_ROW_COPIES=compute"
        f=$o/$pack-$dt-$copies-$pass
        env $env timeout 100 $g/run streamk-bench --shapes $s $flag --dtype $dt --modes $modes \
          --warmup 3 --reps 15 --inner 5 --csv $f.csv > $f.txt 2> $f.err
        echo "$pack $dt $copies $pass exit $?"
      done
    done
    env=""; [[ $copies == compute ]] && env="STREAMK_ROW_COPIES=compute"
    env $env timeout 60 $g/run streamk-bench --shapes $v --packed --modes auto --warmup 3 \
      --reps 31 --inner 5 --csv $o/vocab-$copies-$pass.csv > $o/vocab-$copies-$pass.txt \
      2> $o/vocab-$copies-$pass.err
    echo "vocab $copies $pass exit $?"
  done
done
for sh in "11008 7 4096" "1023 1023 1023" "512 50257 768" "4096 50257 768"; do
  echo "=== $sh"
  timeout 60 $g/run streamk-trace $sh 2>&1 | grep -E "checked|untraced|per block|pieces"
done > $o/traces.txt
cat $o/traces.txt
timeout 150 $g/run streamk-bench --set llm --modes auto,dp,cublas > $o/llm.txt 2> $o/llm.err
echo "llm exit $?"; sed -n "/# summary/,\$p" $o/llm.txt
timeout 150 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  > $o/waveq-issue-command.txt 2> $o/waveq.err
echo "waveq exit $?"; sed -n "/# summary/,\$p" $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
