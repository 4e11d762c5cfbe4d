#!/usr/bin/env bash
# Session 16, run 64: (1) the 128 x 128 kernel with a 5-stage ring (gpu/s5/streamk-bench, built
# with -DSTREAMK_SM90_TMA_STAGES_128=5) against the 4-stage default on decode shapes, twice each,
# alternating; (2) large same-plan shapes at 31 repetitions with the SM clock, power and clock
# event reasons logged every 50 ms; (3) a trace of 70b.up.m16. Run from the directory holding gpu/.
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o; d=$(pwd)/docs/results/2026-11-21-h200-decode
export LD_LIBRARY_PATH="$g/lib"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
q=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active
nvidia-smi --query-gpu=$q --format=csv -lms 50 > $o/smi.csv 2>&1 &
smi=$!
m=auto,dp/128x128x64,streamk/128x128x64,splitk/128x128x64,cublas
for pass in 1 2; do
  for b in base s5; do
    exe=streamk-bench; [ $b = s5 ] && exe=s5/streamk-bench
    echo "$(date +%T.%N) decode $b pass $pass" >> $o/marks.txt
    timeout 90 $g/run $exe --shapes $d/decode-shapes.txt --modes $m --warmup 3 --reps 15 --inner 5 \
      --csv $o/decode-$b-$pass.csv > $o/decode-$b-$pass.txt 2>/dev/null; echo "decode $b $pass rc $?"
  done
done
for pass in 1 2; do
  echo "$(date +%T.%N) large pass $pass" >> $o/marks.txt
  timeout 120 $g/run streamk-bench --shapes $d/large-shapes.txt --modes auto,dp,dp/128x128x64,dp/128x256x64 \
    --warmup 3 --reps 31 --inner 5 --csv $o/large-$pass.csv > $o/large-$pass.txt \
    2> >(while read -r l; do echo "$(date +%T.%N) $l"; done > $o/large-$pass.err)
  echo "large $pass rc $?"
done
echo "$(date +%T.%N) end" >> $o/marks.txt
timeout 30 $g/run streamk-trace 28672 16 8192 --mode dp --tile 128x128x64 > $o/trace.txt 2>&1; echo "trace rc $?"
kill $smi
for f in $o/decode-*.txt $o/large-*.txt; do echo "== $f"; sed -n '/# summary/,$p' $f; done
cd $o && tar czf all.tgz * && find . -type f ! -name all.tgz -delete && ls
