#!/usr/bin/env bash
# Session 9, run 26: data-parallel work first on each persistent block (RoleOf: DP, then Stream-K,
# then reduction blocks) against the previous order (Stream-K first; bundle gpu-old, commit
# 44c1d2d). Every GPU test on the new order, then the waveq set in six decompositions and the llm
# set in three, old and new binaries alternating (A B B A), then traces of a 540-tile shape.
# Run as "run26.sh a" (checks, waveq) and "run26.sh b" (llm, traces), one call each.
set -u
stage=${1:-all}  # check+waveq: "a"; llm+traces: "b"
g=$(cd "$(dirname "$0")" && pwd); old=$g/../gpu-old; o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
W="--set waveq --modes auto,dp,streamk,streamk-tail@separate,streamk-tail:33@separate,streamk-tail:12@deterministic --warmup 3 --reps 9 --inner 5"
L="--set llm --modes auto,dp,streamk-tail --warmup 3 --reps 9 --inner 5"
if [[ $stage != b ]]; then
bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "gpu_check exit $?"; tail -7 $o/check.txt
tar czf $o/check.tgz -C $o check && rm -rf $o/check
for pass in old1 new1 new2 old2; do
  case $pass in old*) b=$old ;; *) b=$g ;; esac
  timeout 200 $b/run streamk-bench $W --csv $o/csv/waveq-$pass.csv > $o/waveq-$pass.txt 2>/dev/null
  echo "$pass waveq: $(grep -E '^waveq +dp ' $o/waveq-$pass.txt)"
done
fi
if [[ $stage != a ]]; then
for pass in old1 new1 new2 old2; do
  case $pass in old*) b=$old ;; *) b=$g ;; esac
  timeout 150 $b/run streamk-bench $L --csv $o/csv/llm-$pass.csv > $o/llm-$pass.txt 2>/dev/null
  echo "$pass llm: $(grep -E '^llm +dp ' $o/llm-$pass.txt)"
done
T="timeout 60 $g/run streamk-trace --traces 3"
n=0
run() { n=$((n+1)); echo "=== [$n] streamk-trace $*"; $T "$@" --csv $o/csv/trace$n.csv; }
{
  run 3456 5120 8192 --mode dp
  run 3456 5120 8192 --mode auto
  run 3456 5120 8192 --mode streamk --sk_tiles 144 --blocks 132 --reduction deterministic
  run 3456 5120 8192 --mode streamk --sk_tiles tail --blocks 132 --reduction separate
  run 2432 1792 8192 --mode auto
  run 2944 5888 4096 --mode auto
  run 2432 1792 4096 --mode auto
} > $o/trace.txt 2>&1
grep -E "^===|^untraced|^per block|^streamk |^dp |^reduction " $o/trace.txt
fi
tar czf $o/csv.tgz -C $o csv && rm -rf $o/csv
