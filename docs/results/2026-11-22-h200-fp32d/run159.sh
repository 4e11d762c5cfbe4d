#!/usr/bin/env bash
# Session 28, run 159: kMinDeepAlignedGain (auto leaves dp for a 2.5% predicted gain on deep,
# aligned, full-round shapes off clusters) against HEAD 11c9a66 (base), on every shape whose pick it
# moves (deep-aligned-movers.txt), fp16 and bf16, auto, dp and dp on 128 x 192 with the same modes
# in both builds, passes base/rule three times.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz; tar xJf gpu-b/rule.tar.xz
g=$(pwd)/gpu; gr=$(pwd)/rule; export LD_LIBRARY_PATH=$g/lib
f=docs/results/2026-11-22-h200-fp32d/deep-aligned-movers.txt
for pass in 1 2 3; do
  for dt in fp16 bf16; do
    for b in base rule; do
      bb=$g; [ $b = rule ] && bb=$gr
      LD_LIBRARY_PATH=$bb/lib timeout 80 $bb/run streamk-bench --shapes $f --dtype $dt \
        --modes auto,dp,dp/128x192x64 --warmup 3 --reps 15 --inner 5 \
        --csv $o/$b-$dt-$pass.csv > $o/$b-$dt-$pass.txt 2> /dev/null
      echo "$b $dt $pass exit $?"
    done
  done
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
