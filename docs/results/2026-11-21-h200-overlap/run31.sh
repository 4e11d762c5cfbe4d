#!/usr/bin/env bash
# Session 10, run 31: the planner with the partial-round overlap term (this bundle, gpu) against
# HEAD before it (gpu-old, commit dde3af3). Every GPU test on the new build; the issue's waveq
# command in the order old new new old; the two paper shapes whose pick changed, both builds;
# the full fp16 benchmark (scripts/gpu_bench.sh) on the new build.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "gpu_check exit $?"; tail -4 $o/check.txt
tar czf $o/check.tgz -C $o check && rm -rf $o/check
for pass in old1 new1 new2 old2; do
  case $pass in old*) b=$g/../gpu-old ;; *) b=$g ;; esac
  timeout 90 $b/run streamk-bench --set waveq --modes auto,dp,splitk,cublas --csv $o/csv/waveq-$pass.csv > $o/waveq-$pass.txt 2>/dev/null
  echo "$pass waveq: $(grep -E '^waveq +dp ' $o/waveq-$pass.txt)"
done
for pass in old new; do
  case $pass in old*) b=$g/../gpu-old ;; *) b=$g ;; esac
  timeout 60 $b/run streamk-bench --shape 2880x3064x7752 --shape 696x6688x5096 --modes auto,dp,cublas --warmup 3 --reps 15 --inner 5 > $o/paper-changed-$pass.txt 2>/dev/null
  grep -E "^cli " $o/paper-changed-$pass.txt | cut -c1-120
done
timeout 330 bash $g/gpu_bench.sh $g $o fp16; echo "bench exit $?"
cd $o && tar czf csv.tgz csv bench-fp16.csv bench-fp16.json && tar czf txt.tgz gpu.txt waveq-*.txt paper-changed-*.txt bench-fp16.err && rm -rf csv bench-fp16.csv bench-fp16.json gpu.txt waveq-*.txt paper-changed-*.txt bench-fp16.err
