#!/usr/bin/env bash
# Session 15, run 61: Options::tile and the trace's pooled SM clock. Every GPU test; traces of
# short and long launches (the span against the untraced time per launch); data-parallel on
# each kernel configuration over the paper, waveq and llm sets (for the planner's tile choice).
# Run from the directory holding gpu/ (the bundle).
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -8
for args in "2432 1792 1024 --mode dp" "2816 1536 1024 --mode dp" "2432 1792 4096 --mode dp" \
            "2432 1792 4096" "2432 1792 1024 --mode streamk"; do
  echo "=== streamk-trace $args" >> $o/trace.txt
  timeout 30 $g/run streamk-trace $args >> $o/trace.txt 2>&1
done
grep -E "^===|^untraced|^host|^span|SM clock" $o/trace.txt
M="--modes auto,dp/128x256x64,dp/128x128x64 --warmup 3 --reps 9 --inner 5"
timeout 200 $g/run streamk-bench --set paper,waveq,llm --count 150 --seed 1 $M --csv $o/csv/dp-tiles-fp16.csv > $o/dp-tiles-fp16.txt 2>/dev/null
echo "dp tiles rc $?"; sed -n '/# summary/,$p' $o/dp-tiles-fp16.txt
cd $o && tar czf csv.tgz csv && tar czf check.tgz check && rm -rf csv check
