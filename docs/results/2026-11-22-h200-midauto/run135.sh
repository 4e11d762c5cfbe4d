#!/usr/bin/env bash
# Session 24, run 135: after the review commit (the producer's never-taken wrap of a rotation past
# the tile dropped; the rotation's contract stated instead). (1) Every GPU test. (2) The issue's
# waveq command, and forced all-tiles Stream-K on the deep many-tile shapes of run 133, against
# cuBLAS in the same call.
set -u
o=$OUT/r; mkdir -p $o
tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
timeout 240 bash scripts/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "PASSED|FAILED|exit" $o/check/gpu_tests.log | head -30
timeout 60 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2> /dev/null
echo "waveq command exit $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
timeout 90 $g/run streamk-bench --shape 5888x2944x8192,4352x3072x8192,5120x3456x8192 \
  --modes auto,dp,streamk/128x256x64,streamk/128x192x64,cublas --reps 15 > $o/deep.txt 2> /dev/null
echo "deep exit $?"; grep -E "^cli|summary|^set|streamk" $o/deep.txt | head -20
cd $OUT && tar czf all.tgz r && rm -rf r && ls
