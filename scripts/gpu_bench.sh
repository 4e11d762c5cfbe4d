#!/usr/bin/env bash
# The benchmark behind docs/performance.md: streamk-bench over named shape sets, one CSV, text
# table and plot per dtype, every result checked against cuBLAS before it is timed.
#
#   scripts/gpu_bench.sh [--bin DIR] [--out DIR] [--dtypes fp16,bf16] [--sets paper,waveq,llm]
#                        [--shapes FILE] [--modes LIST] [--count N] [--seed S] [--reps R]
#                        [--graph | --launches] [--align A] [--rotate] [--name NAME]
#                        [-- EXTRA STREAMK-BENCH FLAGS]
#
# --bin DIR     where streamk-bench is: a folder with the executable, or a bundle made by
#               ../shared/scripts/gpu-bundle (its `run` wrapper is used); default build/tools
# --out DIR     where the results go (default experiments/bench-DATE, which git ignores)
# (default)     time CUDA graph replays (the GPU's time: the table and first summary) and
#               back-to-back launches (the second summary), each mode both ways
# --graph       graph replays only; --launches: back-to-back launches only
# --align A     --set paper sizes multiples of A (default 8; 1: any size)
# --name NAME   file name stem (default bench); files are OUT/NAME-DTYPE.{txt,csv,svg,err}
#
# The headline of docs/performance.md is
#   scripts/gpu_bench.sh --bin BUNDLE --out OUT                 # graph replays and back to back
# Exits non-zero if any streamk-bench run failed (a wrong result fails the run).
set -uo pipefail
cd "$(dirname "$0")/.."

bin=build/tools out=experiments/bench-$(date -u +%Y%m%d-%H%M%S) dtypes=fp16,bf16
sets=paper,waveq,llm shapes="" modes=auto,dp,splitk,streamk,cublas count=150 seed=1 reps=31
timing=both align=8 rotate=() name=bench extra=()
while (($#)); do
  case $1 in
    --bin) bin=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --dtypes) dtypes=$2; shift 2 ;;
    --sets) sets=$2; shift 2 ;;
    --shapes) shapes=$2; sets=""; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --graph) timing=graph; shift ;;
    --launches) timing=launches; shift ;;
    --align) align=$2; shift 2 ;;
    --rotate) rotate=(--rotate); shift ;;
    --name) name=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "gpu_bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

if [[ -x $bin/run ]]; then
  bench=("$bin/run" streamk-bench)
elif [[ -x $bin/streamk-bench ]]; then
  bench=("$bin/streamk-bench")
else
  echo "gpu_bench.sh: no streamk-bench in '$bin' (build it, or pass --bin BUNDLE)" >&2
  exit 2
fi
what=(--set "$sets" --count "$count" --seed "$seed" --align "$align")
[[ -n $shapes ]] && what=(--shapes "$shapes")

mkdir -p "$out"
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem --format=csv
} > "$out/gpu.txt" 2>&1
status=0
for dtype in ${dtypes//,/ }; do
  f=$out/$name-$dtype
  "${bench[@]}" "${what[@]}" --dtype "$dtype" --modes "$modes" --warmup 3 --reps "$reps" \
    --inner 5 --timing "$timing" "${rotate[@]}" "${extra[@]}" \
    --csv "$f.csv" --svg "$f.svg" > "$f.txt" 2> "$f.err"
  rc=$?
  echo "== $name $dtype: exit $rc"
  sed -n '/# summary/,$p' "$f.txt"
  ((rc)) && status=1
done
exit $status
