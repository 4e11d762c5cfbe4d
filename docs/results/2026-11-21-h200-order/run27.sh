#!/usr/bin/env bash
# Session 9, run 27: three work orders in one call. old = Stream-K blocks first (bundle gpu-old,
# commit 44c1d2d), dpf = every data-parallel block first (gpu-dpf, run 26's build), mid = every
# full data-parallel round but the last before the Stream-K blocks (this bundle: the planner's
# Plan::dp_blocks_before_sk). Every GPU test on mid; the waveq set in six decompositions and the
# llm set in three, binaries in the order old dpf mid mid dpf old; traces on mid.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "gpu_check exit $?"; tail -7 $o/check.txt
tar czf $o/check.tgz -C $o check && rm -rf $o/check
W="--set waveq --modes auto,dp,streamk,streamk-tail@separate,streamk-tail:33@separate,streamk-tail:12@deterministic --warmup 3 --reps 9 --inner 5"
L="--set llm --modes auto,dp,streamk-tail --warmup 3 --reps 9 --inner 5"
for pass in old1 dpf1 mid1 mid2 dpf2 old2; do
  case $pass in old*) b=$g/../gpu-old ;; dpf*) b=$g/../gpu-dpf ;; *) b=$g ;; esac
  timeout 120 $b/run streamk-bench $W --csv $o/csv/waveq-$pass.csv > $o/waveq-$pass.txt 2>/dev/null
  echo "$pass waveq: $(grep -E '^waveq +dp ' $o/waveq-$pass.txt)"
done
for pass in old1 dpf1 mid1 mid2 dpf2 old2; do
  case $pass in old*) b=$g/../gpu-old ;; dpf*) b=$g/../gpu-dpf ;; *) b=$g ;; esac
  timeout 100 $b/run streamk-bench $L --csv $o/csv/llm-$pass.csv > $o/llm-$pass.txt 2>/dev/null
  echo "$pass llm: $(grep -E '^llm +dp ' $o/llm-$pass.txt)"
done
T="timeout 60 $g/run streamk-trace --traces 3"
n=0
run() { n=$((n+1)); echo "=== [$n] streamk-trace $*"; $T "$@" --csv $o/csv/trace$n.csv; }
{
  run 3456 5120 8192 --mode streamk --sk_tiles tail --blocks 132 --reduction separate
  run 2944 5888 4096 --mode auto
  run 2944 3072 8192 --mode streamk --sk_tiles tail --reduction separate
} > $o/trace.txt 2>&1
grep -E "^===|^untraced|^per block|^streamk |^dp |^reduction " $o/trace.txt
tar czf $o/csv.tgz -C $o csv && rm -rf $o/csv
