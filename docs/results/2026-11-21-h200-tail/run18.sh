#!/usr/bin/env bash
# Session 7, run 18: after the review (ParseSkTiles shared by the tools; the reduction's slot
# lookup through mapping::PeerSlotOffset) and the partial_wave_streamk gate. Every GPU test, then
# the three sets in fp16 against dp and cuBLAS, and the issue's waveq command.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "gpu_check exit $?"; tail -7 $o/check.txt
tar czf $o/check.tgz -C $o check && rm -rf $o/check  # the lent machine returns at most 8 files
timeout 420 $g/run streamk-bench --set paper,waveq,llm --count 150 --seed 1 --dtype fp16 \
  --modes auto,dp,splitk,cublas --warmup 3 --reps 9 --inner 5 \
  --csv $o/bench-fp16.csv --svg $o/bench-fp16.svg > $o/bench-fp16.txt 2>/dev/null
tail -14 $o/bench-fp16.txt
grep -E "328x5656x1400" $o/bench-fp16.txt
timeout 100 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
tail -6 $o/waveq-issue-command.txt
