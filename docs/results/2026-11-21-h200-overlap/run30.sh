#!/usr/bin/env bash
# Session 10, run 30: measurements for refitting the 128x256 cost model. The waveq set in many
# decompositions (Stream-K over all tiles, and the partial wave's tiles over 8-132 blocks with
# either reduction), two passes; the llm set in six. The build is the session's first: the
# planner's prediction has the partial-round overlap term, the constants are unchanged.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
W="--set waveq --modes auto,dp,streamk,streamk@separate,streamk-tail@deterministic,streamk-tail@separate,streamk-tail:8@separate,streamk-tail:16@separate,streamk-tail:33@separate,streamk-tail:66@separate,streamk-tail:132@separate,streamk-tail:33@deterministic,streamk-tail:66@deterministic --warmup 3 --reps 9 --inner 5"
for pass in 1 2; do
  timeout 250 $g/run streamk-bench $W --csv $o/csv/waveq-$pass.csv > $o/waveq-$pass.txt 2>/dev/null
  echo "pass $pass waveq rc $?: $(grep -E '^waveq +dp ' $o/waveq-$pass.txt)"
done
L="--set llm --modes auto,dp,streamk,streamk-tail@separate,streamk-tail:33@separate,streamk-tail@deterministic --warmup 3 --reps 9 --inner 5"
timeout 150 $g/run streamk-bench $L --csv $o/csv/llm.csv > $o/llm.txt 2>/dev/null
echo "llm rc $?: $(grep -E '^llm +dp ' $o/llm.txt)"
tar czf $o/csv.tgz -C $o csv && rm -rf $o/csv
