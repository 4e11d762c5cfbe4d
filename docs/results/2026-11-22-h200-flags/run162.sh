#!/usr/bin/env bash
# Session 29, run 162, HEAD 9ef15ab (tools read dashed flag names; the plan SVG's title is the
# planner's prediction): every GPU test; the issue's waveq command against cuBLAS; a --shapes FILE
# run with the README's --out-dtype spelling (fp32 D) and --rotate; streamk-plan --svg on the GPU.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $o/gpu.txt 2>&1
timeout 240 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "PASSED|FAILED|exit" $o/check/gpu_tests.log | head -30
timeout 200 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2> $o/waveq.err
echo "waveq exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
printf '# name M N K\nqkv.m16 16 12288 4096\nup.m512 512 11008 4096\nodd 1000 1264 2648\nsquare 4096 4096 4096\n' > $o/shapes.txt
timeout 100 $g/run streamk-bench --shapes $o/shapes.txt --out-dtype fp32 --rotate --modes auto,dp,splitk,streamk,cublas \
  --csv $o/shapes-fp32.csv > $o/shapes-fp32.txt 2> $o/shapes-fp32.err
echo "shapes exit $?"; cat $o/shapes-fp32.txt
timeout 30 $g/run streamk-plan 3072 1536 4096 --svg $o/plan.svg > $o/plan.txt 2>&1; echo "plan exit $?"; head -3 $o/plan.txt
cd $OUT && tar czf all.tgz r && rm -rf r && ls
