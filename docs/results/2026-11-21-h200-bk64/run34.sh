#!/usr/bin/env bash
# Session 11, run 34: the 128x256 TMA configuration with 64-deep k-iterations (128-byte rows,
# 3 stages of 48 KiB; this bundle, gpu) against 32-deep ones (HEAD, gpu-old). Every GPU test on
# the new build; then, alternating old new new old, the K-alignment shapes and large paper shapes
# data-parallel against cuBLAS, and the issue's waveq command.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "gpu_check exit $?"; tail -4 $o/check.txt
tar czf $o/check.tgz -C $o check && rm -rf $o/check
for pass in old1 new1 new2 old2; do
  case $pass in old*) b=$g/../gpu-old ;; *) b=$g ;; esac
  timeout 60 $b/run streamk-bench --shapes $g/kalign-shapes.txt --modes dp,cublas --csv $o/csv/kalign-$pass.csv > $o/kalign-$pass.txt 2>/dev/null
  timeout 60 $b/run streamk-bench --shapes $g/big-shapes.txt --modes auto,dp,cublas --csv $o/csv/big-$pass.csv > $o/big-$pass.txt 2>/dev/null
  timeout 90 $b/run streamk-bench --set waveq --modes auto,dp,splitk,cublas --csv $o/csv/waveq-$pass.csv > $o/waveq-$pass.txt 2>/dev/null
  echo "$pass kalign: $(grep -E '^file +cublas ' $o/kalign-$pass.txt)"
  echo "$pass big:    $(grep -E '^file +cublas ' $o/big-$pass.txt)"
  echo "$pass waveq:  $(grep -E '^waveq +(dp|cublas) ' $o/waveq-$pass.txt | tr '\n' ' ')"
done
cd $o && tar czf csv.tgz csv && rm -rf csv
