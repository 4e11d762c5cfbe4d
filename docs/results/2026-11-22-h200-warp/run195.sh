#!/usr/bin/env bash
# Session 35, run 195: the final kernel (the copying warp where blocks finish several tiles, the
# rows' ends by straight-line stores). Every GPU test (streamk-plan not bundled: the bundle and
# the repository must fit the 64 MiB a call carries); session 33's unaligned shapes packed and
# padded with cuBLAS, fp16 and bf16; GPT-2's logits against the padded vocabularies; the llm set
# and the issue's waveq command.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
s=docs/results/2026-11-22-h200-anyld/unaligned-shapes.txt
v=docs/results/2026-11-22-h200-rows/vocab-shapes.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=240 timeout 500 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "check exit $?"; grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | head -30
for dt in fp16 bf16; do
  for pack in packed padded; do
    flag=""; [[ $pack == packed ]] && flag="--packed"
    timeout 100 $g/run streamk-bench --shapes $s $flag --dtype $dt --modes auto,dp,cublas \
      --warmup 3 --reps 15 --inner 5 --csv $o/$pack-$dt.csv > $o/$pack-$dt.txt 2> $o/$pack-$dt.err
    echo "$pack $dt exit $?"; sed -n "/# summary/,\$p" $o/$pack-$dt.txt | tail -3
  done
  timeout 60 $g/run streamk-bench --shapes $v --packed --dtype $dt --modes auto,cublas \
    --warmup 3 --reps 31 --inner 5 --csv $o/vocab-packed-$dt.csv > $o/vocab-packed-$dt.txt \
    2> $o/vocab-packed-$dt.err
  echo "vocab $dt exit $?"
done
timeout 150 $g/run streamk-bench --set llm --modes auto,dp,cublas > $o/llm.txt 2> $o/llm.err
echo "llm exit $?"; sed -n "/# summary/,\$p" $o/llm.txt
timeout 150 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  > $o/waveq-issue-command.txt 2> $o/waveq.err
echo "waveq exit $?"; sed -n "/# summary/,\$p" $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
