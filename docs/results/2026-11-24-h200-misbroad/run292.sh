#!/usr/bin/env bash
# Session 55, run 292: the planner weighing the 128 x 320 tile on misaligned rows. Every GPU test;
# the 44 moved picks (moved.txt) with every old pick forced in the same passes (tn fp16 twice, tn
# bf16 once); the three old picks that copied an operand first, forced with either copy
# (--repack names the call's operand, the planner's other one where D is column-major: the CSV's
# plan columns say which matched), beside cuBLAS; the issue's waveq command.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
d=docs/results/2026-11-24-h200-misbroad
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem \
  --format=csv > $o/gpu.txt 2>&1
GPU_TEST_TIMEOUT=170 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1
echo "gpu_check exit $? at $SECONDS s"; tail -12 $o/check.txt
fm=auto,dp,dp/128x256x64,streamk/128x256x64,dp/128x192x64,dp/128x128x64,cublas
run() {  # name, shapes, modes, extra flags
  local n=$1 s=$2 m=$3; shift 3
  timeout 100 $g/run streamk-bench --shapes $d/$s --rotate --reps 21 --inner 5 --modes $m \
    --csv $o/$n.csv "$@" > $o/$n.txt 2>&1
  echo "$n exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/$n.txt
}
run tn-fp16-1 moved.txt $fm --layout tn
for r in a b; do
  run repack-b-$r-1 repack_b.txt dp/128x192x64,cublas --layout tn --repack $r
  run repack-a-$r-1 repack_a.txt streamk/128x256x64,cublas --layout tn --repack $r
done
run tn-bf16-1 moved.txt $fm --layout tn --dtype bf16
run tn-fp16-2 moved.txt $fm --layout tn
for r in a b; do
  run repack-b-$r-2 repack_b.txt dp/128x192x64,cublas --layout tn --repack $r
  run repack-a-$r-2 repack_a.txt streamk/128x256x64,cublas --layout tn --repack $r
done
timeout 120 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas \
  --csv $o/waveq-issue-command.csv > $o/waveq-issue-command.txt 2>&1
echo "waveq exit $? at $SECONDS s"; sed -n '/# summary/,/^$/p' $o/waveq-issue-command.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
