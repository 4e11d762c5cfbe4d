#!/usr/bin/env bash
# Session 6, run 13: every GPU test on the final commit (679566d), and in the same call the
# K-alignment shapes and the paper set, auto against dp, split-K and cuBLAS.
set -u
g=$(cd "$(dirname "$0")" && pwd); o=$OUT/r; mkdir -p $o
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bash $g/gpu_check.sh $g $o > $o/check.txt 2>&1; echo "gpu_check exit $?"; tail -8 $o/check.txt
timeout 60 $g/run streamk-bench --shapes $g/kalign-shapes.txt --modes auto,dp,splitk,cublas > $o/kalign.txt 2>/dev/null
timeout 150 $g/run streamk-bench --set paper --modes auto,dp,splitk,cublas --csv $o/paper.csv > $o/paper.txt 2>/dev/null
grep -E "^(file|paper) +(dp|splitk|cublas) " $o/kalign.txt $o/paper.txt
