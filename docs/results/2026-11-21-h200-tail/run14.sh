#!/usr/bin/env bash
# Session 7, run 14: the partial wave's tiles Stream-K ahead of data-parallel tiles, with a sliced
# separate reduction. Every GPU test, then the waveq set with the new decomposition in several
# block counts and reductions against dp, all-tiles Stream-K and the new auto; traces of one shape.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bash $g/gpu_check.sh $g $o > $o/check.txt 2>&1; echo "gpu_check exit $?"; tail -9 $o/check.txt
B="timeout 200 $g/run streamk-bench --warmup 3 --reps 9 --inner 5"
$B --set waveq --modes auto,dp,streamk,streamk-tail@separate,streamk-tail:132@separate,streamk-tail:66@separate,streamk-tail:33@separate,streamk-tail:132@separate:4,streamk-tail:132@atomic,streamk-tail@deterministic,cublas --csv $o/waveq.csv > $o/waveq.txt 2>$o/waveq.err
tail -5 $o/waveq.err
cat $o/waveq.txt | cut -c1-250
T="timeout 60 $g/run streamk-trace"
for args in "2432 1792 4096 --mode dp" "2432 1792 4096 --mode streamk --sk_tiles tail --blocks 132 --reduction separate" \
            "2432 1792 4096 --mode streamk --sk_tiles tail --blocks 33 --reduction separate" \
            "2944 3072 4096 --mode streamk --sk_tiles tail --blocks 132 --reduction separate" \
            "2432 1792 1024 --mode streamk --sk_tiles tail --blocks 132 --reduction separate"; do
  echo "=== streamk-trace $args"; $T $args
done > $o/trace.txt 2>&1
grep -E "^===|span|total|fixup|epilogue|mainloop|idle|wait" $o/trace.txt | head -80
