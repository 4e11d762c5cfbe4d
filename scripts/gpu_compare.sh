#!/usr/bin/env bash
# A speed change's evidence: two builds of streamk (or one build with and without a device
# profile) timed on the same shapes in the same device call, alternating, then compared shape by
# shape with `streamk-bench --compare` (each run normalized by its own cuBLAS times).
#
#   scripts/gpu_compare.sh --first BUNDLE [--second BUNDLE] [--second-profile FILE]
#                          [--out DIR] [--rounds R] [--sets paper,llm,waveq] [--count N]
#                          [--seed S] [--modes auto,cublas] [--reps R] [-- EXTRA FLAGS]
#
# --first, --second  a folder with streamk-bench, or a bundle made by ../shared/scripts/gpu-bundle
#                    (its `run` wrapper is used); --second defaults to --first
# --second-profile   the second side plans with this device profile (streamk-bench --profile):
#                    a calibrated profile against the built-in model
# --out DIR          where the CSVs, tables and comparisons go (default experiments/compare-DATE)
# --rounds R         times each side is run, alternating (default 2): first-1 against first-2
#                    shows the noise a change must clear
# Graph replay (the GPU's time), fp16, the paper set drawn with --seed (default 7, a seed nobody
# tuned on) plus the llm and waveq sets. Exits non-zero if a run failed.
set -uo pipefail
cd "$(dirname "$0")/.."

first="" second="" profile="" out=experiments/compare-$(date -u +%Y%m%d-%H%M%S) rounds=2
sets=paper,llm,waveq count=150 seed=7 modes=auto,cublas reps=11 extra=()
while (($#)); do
  case $1 in
    --first) first=$2; shift 2 ;;
    --second) second=$2; shift 2 ;;
    --second-profile) profile=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --sets) sets=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "gpu_compare.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ -n $first ]] || { echo "gpu_compare.sh: give --first BUNDLE (see --help)" >&2; exit 2; }
[[ -n $second ]] || second=$first
bench_of() {  # the command that runs streamk-bench from a bundle or a build folder
  if [[ -x $1/run ]]; then
    echo "$1/run streamk-bench"
  elif [[ -x $1/streamk-bench ]]; then
    echo "$1/streamk-bench"
  else
    echo "gpu_compare.sh: no streamk-bench in '$1'" >&2
    return 1
  fi
}
bench_first=$(bench_of "$first") || exit 2
bench_second=$(bench_of "$second") || exit 2
[[ -z $profile || -f $profile ]] || { echo "gpu_compare.sh: no profile '$profile'" >&2; exit 2; }

mkdir -p "$out"
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem --format=csv
} > "$out/gpu.txt" 2>&1
status=0
for round in $(seq "$rounds"); do
  for side in first second; do
    if [[ $side == first ]]; then bench=$bench_first side_flags=(); else
      bench=$bench_second side_flags=(${profile:+--profile "$profile"}); fi
    f=$out/$side-$round
    # shellcheck disable=SC2086  # $bench is a command and its first argument
    $bench --set "$sets" --count "$count" --seed "$seed" --modes "$modes" --timing graph \
      --reps "$reps" "${side_flags[@]}" "${extra[@]}" --csv "$f.csv" > "$f.txt" 2> "$f.err"
    rc=$?
    echo "== $side, round $round: exit $rc"
    ((rc)) && status=1
  done
done
compare() {  # $1 $2: CSV stems; the comparison into $out/$1-vs-$2.txt
  [[ -f $out/$1.csv && -f $out/$2.csv ]] || return 0
  # shellcheck disable=SC2086
  $bench_second --compare "$out/$1.csv,$out/$2.csv" > "$out/$1-vs-$2.txt" 2>&1
  echo "== $1 against $2"
  sed -n '1,/^$/p' "$out/$1-vs-$2.txt"
}
for round in $(seq "$rounds"); do compare "first-$round" "second-$round"; done
((rounds > 1)) && compare first-1 first-2
exit $status
