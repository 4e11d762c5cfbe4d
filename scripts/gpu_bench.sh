#!/usr/bin/env bash
# The benchmark behind docs/performance.md, from a bundle made by ../shared/scripts/gpu-bundle:
#   scripts/gpu_bench.sh BUNDLE_DIR OUT_DIR DTYPE
# Runs the paper (150 shapes), waveq and llm sets with every mode and cuBLAS, each result checked
# against cuBLAS before it is timed. Writes OUT_DIR/bench-DTYPE.{txt,csv,json,svg}.
set -uo pipefail
bundle=$1 out=$2 dtype=$3
mkdir -p "$out"
"$bundle/run" streamk-bench --set paper,waveq,llm --count 150 --seed 1 --dtype "$dtype" \
  --modes auto,dp,splitk,streamk,cublas --warmup 3 --reps 31 --inner 5 \
  --csv "$out/bench-$dtype.csv" --json "$out/bench-$dtype.json" --svg "$out/bench-$dtype.svg" \
  > "$out/bench-$dtype.txt" \
  2> "$out/bench-$dtype.err"
rc=$?
sed -n '/# summary/,$p' "$out/bench-$dtype.txt"
exit $rc
