#!/usr/bin/env bash
# Session 12, run 41: the same bundle as run 40. The full bf16 benchmark (scripts/gpu_bench.sh),
# the issue's waveq command again, and traces of the one-wave-plus-one-tile shape at K = 1024
# (where Stream-K does not pay) and K = 4096 (where it does).
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
timeout 300 bash $g/gpu_bench.sh $g $o bf16; echo "bench exit $?"
for k in 1024 4096; do
  for m in "--mode dp" "--mode streamk" "--mode streamk --sk_tiles tail --reduction separate"; do
    echo "=== streamk-trace 2432 1792 $k $m" >> $o/trace.txt
    timeout 30 $g/run streamk-trace 2432 1792 $k $m >> $o/trace.txt 2>&1
  done
done
grep -E "^===|span|per block|mainloop" $o/trace.txt | head -60
cd $o && tar czf csv.tgz bench-bf16.csv bench-bf16.json bench-bf16.err && rm -f bench-bf16.csv bench-bf16.json bench-bf16.err
