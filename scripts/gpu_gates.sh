#!/usr/bin/env bash
# The planner's gates on the GPU at hand (docs/planner.md, "The gates"): per set, auto, argmin
# (the cost model's own pick), dp, cuBLAS and every plan auto may pick on each of the GPU's
# kernel configurations, timed in graph replay, then summarized by streamk-bench --gates.
#
#   scripts/gpu_gates.sh --bin BUNDLE [--out DIR] [--sets waveq,llm,paper] [--count N] [--seed S]
#                        [--dtype fp16|bf16] [--reps R] [--set-timeout SECONDS] [--profile FILE]
#
# --bin       a folder with streamk-bench, or a bundle made by ../shared/scripts/gpu-bundle
# --sets      run one set after another, each into its own CSV, rewritten after every shape (a
#             time limit ends a run, not the shapes already measured); default waveq,llm,paper
# --count     paper shapes (default 300), drawn with --seed (default 2026) at any size (--align 1)
# --set-timeout  ends one set's run (default 540 s)
# --profile   plan with this device profile (streamk-bench --calibrate) instead of the built-in
#             model; the CSVs are named SET-DTYPE-profile
set -uo pipefail
cd "$(dirname "$0")/.."
bundle="" out=experiments/gates-$(date -u +%Y%m%d-%H%M%S) sets=waveq,llm,paper count=300
seed=2026 dtype=fp16 reps=7 set_timeout=540 profile=""
while (($#)); do
  case $1 in
    --bin) bundle=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --sets) sets=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --dtype) dtype=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --set-timeout) set_timeout=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "gpu_gates.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ -n $bundle ]] || { echo "gpu_gates.sh: give --bin BUNDLE (see --help)" >&2; exit 2; }
if [[ -x $bundle/run ]]; then bench="$bundle/run streamk-bench"
elif [[ -x $bundle/streamk-bench ]]; then bench="$bundle/streamk-bench"
else echo "gpu_gates.sh: no streamk-bench in '$bundle'" >&2; exit 2; fi

# Every configuration of the Hopper TMA kernel (streamk-plan --device h200 --write_profile lists
# them): data-parallel, the best split-K, all tiles Stream-K and the partial round Stream-K.
modes=auto,argmin,dp,cublas
for t in 128x256x64 128x128x64 128x192x64 192x192x64 64x128x64 128x320x64; do
  modes=$modes,dp/$t,splitk/$t,streamk/$t,streamk-tail/$t
done
modes=$modes,dp/256x256x64,streamk/256x256x64

mkdir -p "$out"
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
} > "$out/gpu.txt" 2>&1
status=0
for set in ${sets//,/ }; do
  f=$out/$set-$dtype${profile:+-profile}
  # shellcheck disable=SC2086  # $bench is a command and its first argument
  timeout "$set_timeout" $bench --set "$set" --count "$count" --seed "$seed" --align 1 \
    --modes "$modes" --dtype "$dtype" --timing graph --reps "$reps" --csv "$f.csv" \
    ${profile:+--profile "$profile"} > "$f.txt" 2> "$f.err"
  rc=$?
  echo "== $set ($dtype): exit $rc"
  ((rc)) && status=1
  # shellcheck disable=SC2086
  [[ -f $f.csv ]] && $bench --gates "$f.csv" | tee "$f-gates.txt"
done
exit $status
