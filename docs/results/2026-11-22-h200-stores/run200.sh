#!/usr/bin/env bash
# Session 36, run 200: a D with 16-byte aligned rows whose n elements end inside a 16-byte chunk
# (n = 50257 in rows of 50264, 1023 in rows of 1024), beta 0: the TMA store's tensor ends at the
# last 16-byte boundary before n and each compute thread stores its row's rest, fewer than 16
# bytes, from the staged boxes (Epilogue::StoreRest; TensorColumnsOf). Before (c1118bc, bundled as
# streamk-trace-before, the same code for these shapes as 863a2a7): a 16-bit D by the rows' bulk
# copies, an fp32 D by the epilogue's own stores. Every GPU test; three rounds alternating before
# and after, streamk-trace's untraced time; session 33's unaligned shapes padded (rows of a
# multiple of 8 elements) in fp16, bf16 and fp32 D against cuBLAS; the llm set and the issue's
# waveq command (aligned shapes: RunTma's code changed).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
s=docs/results/2026-11-22-h200-anyld/unaligned-shapes.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 500 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
for round in 1 2 3; do
  for build in before after; do
    sfx=""; [[ $build == before ]] && sfx="-before"
    for sh in "4096 50257 768 --ldd 50264" "512 50257 768 --ldd 50264" "4096 50304 768" \
              "512 50304 768" "4096 50257 768 --ldd 50260 --out_dtype fp32" \
              "512 50257 768 --ldd 50260 --out_dtype fp32" "512 50304 768 --out_dtype fp32" \
              "1023 1023 1023" "11008 7 4096" "4096 4096 4096" "4096 50257 768 --ldd 50257"; do
      echo "=== $build $round $sh"
      timeout 60 $g/run streamk-trace$sfx $sh 2>&1 | grep -E "checked|untraced|per block|pieces"
    done >> $o/traces.txt
  done
done
grep -E "===|untraced" $o/traces.txt | paste - - | awk '{print $2, $3, $4, $5, $6, $7, $8, $10, $12}'
for dt in fp16 bf16 fp32; do
  flags="--dtype $dt"; [[ $dt == fp32 ]] && flags="--out-dtype fp32"
  timeout 100 $g/run streamk-bench --shapes $s $flags --modes auto,dp,cublas \
    --warmup 3 --reps 15 --inner 5 --csv $o/padded-$dt.csv > $o/padded-$dt.txt 2> $o/padded-$dt.err
  echo "padded $dt exit $?"; sed -n "/# summary/,\$p" $o/padded-$dt.txt | tail -3
done
timeout 150 $g/run streamk-bench --set llm --modes auto,dp,cublas > $o/llm.txt 2> $o/llm.err
echo "llm exit $?"; sed -n "/# summary/,\$p" $o/llm.txt
timeout 150 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  > $o/waveq-issue-command.txt 2> $o/waveq.err
echo "waveq exit $?"; sed -n "/# summary/,\$p" $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
