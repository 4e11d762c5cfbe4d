#!/usr/bin/env bash
# Session 41, run 231: where the shared 128 x 128 tiles' and the 128 x 256 tiles' time goes
# (streamk-trace: mainloop, epilogue per tile) on data-parallel plans as D grows past the 60 MB
# L2: 2048 x 2176, 4224 x 4096 and 8192 x 8192 of D, K = 768, fp16; and ping-pong's for the same.
set -u
o=$OUT/r; mkdir -p $o
rm -rf gpu; tar xJf gpu-b/gpu.tar.xz
g=$(pwd)/gpu; export LD_LIBRARY_PATH=$g/lib
for s in "2048 2176 768" "4224 4096 768" "8192 8192 768"; do
  n=${s// /x}
  STREAMK_PINGPONG=off timeout 60 $g/run streamk-trace $s --mode dp --tile 128x128x64 \
    > $o/trace-$n-shared.txt 2>&1; echo "$n shared exit $?"
  STREAMK_PINGPONG=on timeout 60 $g/run streamk-trace $s --mode dp --tile 128x128x64 \
    > $o/trace-$n-pingpong.txt 2>&1; echo "$n ping-pong exit $?"
  timeout 60 $g/run streamk-trace $s --mode dp --tile 128x256x64 \
    > $o/trace-$n-128x256.txt 2>&1; echo "$n 128x256 exit $?"
done
cd $OUT && tar czf all.tgz r && rm -rf r && ls
