#!/usr/bin/env bash
# Session 11, run 35: both TMA configurations with 64-deep k-iterations (this bundle, gpu; the
# planner's constants unchanged) against HEAD's 32-deep ones (gpu-old). Every GPU test on the new
# build; the paper set (old, new) and the llm and K-alignment shapes (old new new old),
# auto / dp / cuBLAS.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "gpu_check exit $?"; tail -4 $o/check.txt
tar czf $o/check.tgz -C $o check && rm -rf $o/check
for pass in old1 new1; do
  case $pass in old*) b=$g/../gpu-old ;; *) b=$g ;; esac
  timeout 150 $b/run streamk-bench --set paper --count 150 --seed 1 --modes auto,dp,cublas --csv $o/csv/paper-$pass.csv > $o/paper-$pass.txt 2>/dev/null
  echo "$pass paper: $(grep -E '^paper +(dp|cublas) ' $o/paper-$pass.txt | tr '\n' ' ')"
done
for pass in old1 new1 new2 old2; do
  case $pass in old*) b=$g/../gpu-old ;; *) b=$g ;; esac
  timeout 60 $b/run streamk-bench --set llm --modes auto,dp,cublas --csv $o/csv/llm-$pass.csv > $o/llm-$pass.txt 2>/dev/null
  timeout 40 $b/run streamk-bench --shapes $g/kalign-shapes.txt --modes auto,dp,cublas --csv $o/csv/kalign-$pass.csv > $o/kalign-$pass.txt 2>/dev/null
  echo "$pass llm: $(grep -E '^llm +(dp|cublas) ' $o/llm-$pass.txt | tr '\n' ' ')"
  echo "$pass kalign: $(grep -E '^file +(dp|cublas) ' $o/kalign-$pass.txt | tr '\n' ' ')"
done
cd $o && tar czf csv.tgz csv && tar czf txt.tgz *.txt gpu.txt && rm -rf csv paper-*.txt llm-*.txt kalign-*.txt
