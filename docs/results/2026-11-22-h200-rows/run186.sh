#!/usr/bin/env bash
# Session 34, run 186: the rows' bulk copies issued by a warp of the producer's warp group
# (CopyRowsLoop) instead of the compute warps. Not kept: the build was copying-warp.patch (run
# 187's) with every compute thread polling a flag in shared memory instead of the "empty"
# mbarrier. Every GPU test; GPT-2's logits against the padded vocabularies (vocab-shapes.txt)
# and session 33's unaligned shapes, packed and padded, fp16 and bf16; streamk-trace of three
# logits shapes; the llm set (aligned: the TMA store, unchanged).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-22-h200-rows
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 420 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
for dt in fp16 bf16; do
  for pack in packed padded; do
    flag=""; [[ $pack == packed ]] && flag="--packed"
    timeout 100 $g/run streamk-bench --shapes docs/results/2026-11-22-h200-anyld/unaligned-shapes.txt \
      $flag --dtype $dt --modes auto,dp,cublas --warmup 3 --reps 15 --inner 5 \
      --csv $o/$pack-$dt.csv > $o/$pack-$dt.txt 2> $o/$pack-$dt.err
    echo "$pack $dt exit $?"
    timeout 60 $g/run streamk-bench --shapes $d/vocab-shapes.txt $flag --dtype $dt \
      --modes auto,cublas --warmup 3 --reps 31 --inner 5 --csv $o/vocab-$pack-$dt.csv \
      > $o/vocab-$pack-$dt.txt 2> $o/vocab-$pack-$dt.err
    echo "vocab $pack $dt exit $?"
  done
done
for s in "512 50257 768" "512 50264 768" "4096 50257 768"; do
  echo "=== $s"; timeout 60 $g/run streamk-trace $s 2>&1 | grep -E "checked|untraced|per block|^dp "
done > $o/traces.txt
cat $o/traces.txt
timeout 150 $g/run streamk-bench --set llm --modes auto,dp,cublas > $o/llm.txt 2> $o/llm.err
echo "llm exit $?"; sed -n "/# summary/,\$p" $o/llm.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
