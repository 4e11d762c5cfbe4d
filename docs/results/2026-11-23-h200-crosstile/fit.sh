#!/usr/bin/env bash
# Session 40: the ping-pong terms for D larger than the L2 (CostModel::pingpong_stream_gain,
# pingpong_stream_bytes). Run from this folder with a build in ../../../build: bash fit.sh
set -eu
b=../../../build/tools
# Run 221's ping-pong times on the 128 x 256 model's scale (scale.py): the first fit, whose ramp
# from 50 MB of D moved shapes of 67-100 MB that ran a little slower so in run 222.
python3 scale.py $b/streamk-plan > scaled-221.csv
$b/streamk-fit --model alt --set pingpong_stream_bytes=6e7,pingpong_stream_gain=0.08 \
  --fit pingpong_stream_gain,pingpong_stream_bytes scaled-221.csv | grep -E "rms|pingpong_stream"
# Runs 221 and 222: without the terms, both fitted, and as set in lib/device_spec.cc (0.09 from
# one L2 of the H200, 60 MiB).
python3 scale.py $b/streamk-plan --with-222 > scaled.csv
$b/streamk-fit --model alt --set pingpong_stream_gain=0 scaled.csv | grep rms
$b/streamk-fit --model alt --set pingpong_stream_bytes=7e7,pingpong_stream_gain=0.08 \
  --fit pingpong_stream_gain,pingpong_stream_bytes scaled.csv | grep -E "rms|pingpong_stream"
$b/streamk-fit --model alt scaled.csv | grep -E "rms|pingpong_stream"
# Auto's picks replayed over the measured plans (pick_us against best_us, per dtype), without
# the terms and as set.
for dt in fp16 bf16; do
  for gain in 0 0.09; do
    echo "== $dt, pingpong_stream_gain=$gain"
    $b/streamk-fit --model alt --set pingpong_stream_gain=$gain run221/grid-$dt-*.csv \
      run222/check-$dt-*.csv | sed -n '/^set/,/^$/p' > replay.tmp
    cat replay.tmp
    # The runs time no plain dp mode, so the tool's own summary is empty: pick against best here.
    awk 'NR > 1 && $5 + 0 > 0 { s += log($5 / $7); n++; if ($5 / $7 > 1.02) c++ }
         END { printf "pick / best: geomean %.4f over %d shapes, %d over 1.02\n", exp(s / n), n, c }' \
      replay.tmp
  done
done
rm -f replay.tmp
