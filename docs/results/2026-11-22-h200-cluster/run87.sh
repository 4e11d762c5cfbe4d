#!/usr/bin/env bash
# Session 18, run 87: the cluster configuration (256x256x64 on 2-SM clusters sharing B) first on
# a GPU: every GPU test, then data-parallel on 128x256 blocks against 256x256 clusters on the
# K-misaligned pairs and the waveq set, with cuBLAS, and a trace.
set -u
o=$OUT/r; mkdir -p $o
B=gpu/run
bash gpu/gpu_check.sh gpu $o/check > $o/check.txt 2>&1; echo "check rc $?"; tail -30 $o/check.txt
$B streamk-bench --shapes gpu/kmis-pairs.txt --modes auto,dp/128x256x64,dp/256x256x64,streamk/256x256x64,cublas --reps 15 > $o/pairs.txt 2>&1; echo "pairs rc $?"; cat $o/pairs.txt
$B streamk-bench --set waveq --modes auto,dp/128x256x64,dp/256x256x64,cublas --reps 15 > $o/waveq.txt 2>&1; echo "waveq rc $?"; tail -45 $o/waveq.txt
$B streamk-trace 4096 4096 4104 --mode dp --tile 256x256x64 --repack off > $o/trace.txt 2>&1; tail -12 $o/trace.txt
