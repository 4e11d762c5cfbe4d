#!/usr/bin/env bash
# Session 15, run 60: Options::tile (and streamk-bench's mode/BMxBNxBK, streamk-trace --tile).
# The forced-tile GPU test, then the waveq set in the decompositions of the 128 x 128 kernel that
# auto cannot pick today (its one-tile tail: CostModel::partial_wave_streamk is off for it), and
# traces of the 133-tile shape at K = 1024. Run from the directory holding gpu/ (the bundle).
set -u
g=$(pwd)/gpu; o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
timeout 150 $g/run streamk_gpu_tests --gtest_filter='GemmGpu.Forced*' > $o/forced-tile-test.txt 2>&1
echo "forced test rc $?"; grep -E "PASSED|FAILED|OK \]" $o/forced-tile-test.txt | tail -4
T=128x128x64
W="--set waveq --modes auto,dp,dp/$T,streamk/$T,streamk-tail/$T,streamk-tail/$T@separate,streamk-tail:66/$T@separate,streamk-tail:132/$T@separate,streamk-tail@separate"
timeout 240 $g/run streamk-bench $W --warmup 3 --reps 9 --inner 5 --csv $o/csv/waveq-tile.csv > $o/waveq-tile.txt 2>/dev/null
echo "modes rc $?"; sed -n '/# summary/,$p' $o/waveq-tile.txt
for args in "--mode dp --tile $T" "--mode streamk --sk_tiles tail --reduction separate --tile $T" \
            "--mode streamk --sk_tiles tail --reduction separate --tile 128x256x64"; do
  echo "=== streamk-trace 2432 1792 1024 $args" >> $o/trace.txt
  timeout 30 $g/run streamk-trace 2432 1792 1024 $args >> $o/trace.txt 2>&1
done
grep -E "^===|^checked|^untraced|^span" $o/trace.txt
cd $o && tar czf csv.tgz csv && rm -rf csv
