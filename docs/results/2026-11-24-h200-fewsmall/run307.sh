#!/usr/bin/env bash
# Session 58, run 307: head 73e7bdb's streamk-bench again (auto runs the old picks; dp's pick is
# what the new rule runs). check_shapes.txt, from fresh seeds 101-108 (few_census.py): the 202
# shapes whose pick kMinSmallTileSplitGain moves to dp's (class mv), and the aligned Stream-K
# picks on 128 x 128 and 128 x 256 and split-K picks on 128 x 128 of the same seeds; auto and dp,
# tn fp16 twice and bf16 once. Then run 306's few_shapes.txt once more in fp16 (another machine?).
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-fewsmall
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem,serial \
  --format=csv > $o/gpu.txt 2>&1
for p in tn-fp16-1:fp16:check tn-bf16-1:bf16:check tn-fp16-2:fp16:check few-fp16-3:fp16:few; do
  n=${p%%:*}; r=${p#*:}; t=${r%%:*}; s=${r#*:}
  timeout 150 $g/run streamk-bench --shapes $d/${s}_shapes.txt --rotate --reps 21 --inner 5 \
    --modes auto,dp --layout tn --dtype $t --csv $o/$n.csv > $o/$n.txt 2>&1
  echo "$n exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/$n.txt | head -8
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
