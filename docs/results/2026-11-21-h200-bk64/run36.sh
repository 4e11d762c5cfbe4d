#!/usr/bin/env bash
# Session 11, run 36: measurements for refitting both TMA configurations' cost constants after the
# move to 64-deep k-iterations (this bundle, constants unchanged): the waveq set in 13
# decompositions, the llm set in six, the paper set in five.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
R="--warmup 3 --reps 9 --inner 5"
W="--set waveq --modes auto,dp,streamk,streamk@separate,streamk-tail@deterministic,streamk-tail@separate,streamk-tail:8@separate,streamk-tail:16@separate,streamk-tail:33@separate,streamk-tail:66@separate,streamk-tail:132@separate,streamk-tail:33@deterministic,streamk-tail:66@deterministic"
timeout 200 $g/run streamk-bench $W $R --csv $o/csv/waveq.csv > $o/waveq.txt 2>/dev/null; echo "waveq rc $?"
L="--set llm --modes auto,dp,streamk,streamk-tail@separate,streamk-tail:33@separate,streamk-tail@deterministic"
timeout 120 $g/run streamk-bench $L $R --csv $o/csv/llm.csv > $o/llm.txt 2>/dev/null; echo "llm rc $?"
P="--set paper --count 150 --seed 1 --modes auto,dp,splitk,streamk,streamk-tail@separate"
timeout 250 $g/run streamk-bench $P $R --csv $o/csv/paper.csv > $o/paper.txt 2>/dev/null; echo "paper rc $?"
cd $o && tar czf csv.tgz csv && tar czf txt.tgz *.txt && rm -rf csv waveq.txt llm.txt paper.txt
