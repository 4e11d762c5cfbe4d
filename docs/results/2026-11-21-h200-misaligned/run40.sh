#!/usr/bin/env bash
# Session 12, run 40: the misaligned terms refitted (0.5 alone / 0.8 busy on 128x256, 0.9 on
# 128x128; this bundle, gpu) against HEAD 7128aa3 (gpu-old, 1.1 on both). Every GPU test on the
# new build; the moved shapes, old new new old, auto / dp; the issue's waveq command; the full
# fp16 benchmark (scripts/gpu_bench.sh).
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "gpu_check exit $?"; tail -4 $o/check.txt
tar czf $o/check.tgz -C $o check && rm -rf $o/check
for pass in old1 new1 new2 old2; do
  case $pass in old*) b=$g/../gpu-old ;; *) b=$g ;; esac
  timeout 60 $b/run streamk-bench --shapes $g/moved-shapes.txt --modes auto,dp --warmup 3 --reps 9 --inner 5 --csv $o/csv/moved-$pass.csv > $o/moved-$pass.txt 2>/dev/null
  echo "$pass moved rc $?: $(grep -E '^file +dp ' $o/moved-$pass.txt)"
done
timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
timeout 300 bash $g/gpu_bench.sh $g $o fp16; echo "bench exit $?"
cd $o && tar czf csv.tgz csv bench-fp16.csv bench-fp16.json bench-fp16.err && rm -rf csv bench-fp16.csv bench-fp16.json bench-fp16.err
