#!/usr/bin/env bash
# Session 16, run 65: the 128 x 128 kernel with a 5-stage ring (the new default) against the
# 4-stage one (gpu/s4/streamk-bench, -DSTREAMK_SM90_TMA_STAGES_128=4): every GPU test on the new
# build, then the paper, waveq and llm sets A/B (fp16 twice, alternating, bf16 once), 31
# repetitions, with the SM clock, power and clock event reasons logged every 50 ms; the issue's
# command; a trace of 70b.up.m16. Run from the directory holding gpu/.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
q=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active
nvidia-smi --query-gpu=$q --format=csv -lms 50 > $o/smi.csv 2>&1 &
smi=$!
timeout 240 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $o/check.txt | tail -8
ab() {  # ab NAME EXE DTYPE
  echo "$(date +%T.%N) $1" >> $o/marks.txt
  timeout 150 $g/run $2 --set paper,waveq,llm --count 150 --seed 1 --dtype $3 \
    --modes auto,dp,streamk,cublas --warmup 3 --reps 31 --inner 5 --csv $o/$1.csv > $o/$1.txt 2>/dev/null
  echo "$1 rc $?"
}
ab s4-fp16-1 s4/streamk-bench fp16
ab s5-fp16-1 streamk-bench fp16
ab s4-fp16-2 s4/streamk-bench fp16
ab s5-fp16-2 streamk-bench fp16
ab s4-bf16 s4/streamk-bench bf16
ab s5-bf16 streamk-bench bf16
echo "$(date +%T.%N) end" >> $o/marks.txt
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
timeout 30 $g/run streamk-trace 28672 16 8192 --mode dp --tile 128x128x64 > $o/trace.txt 2>&1; echo "trace rc $?"
kill $smi
for f in $o/s*.txt; do echo "== $f"; sed -n '/# summary/,$p' $f | grep -E "dp |cublas"; done
cd $o && tar czf all.tgz * && find . -type f ! -name all.tgz -delete && ls
