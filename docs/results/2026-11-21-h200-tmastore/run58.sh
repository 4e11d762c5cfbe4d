#!/usr/bin/env bash
# Session 14, run 58: the review commit that keeps one sm90::FenceProxyAsync (in tma.cuh) for the
# same fence that mainloop_sm90.cuh and tma.cuh each wrapped. Every GPU test. Run from the
# directory holding gpu/ (the bundle).
mkdir -p $OUT/r && bash gpu/gpu_check.sh gpu $OUT/r/check > $OUT/r/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|FAILED" $OUT/r/check.txt | tail -8; cd $OUT/r && tar czf check.tgz check && rm -rf check
