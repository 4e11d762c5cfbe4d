#!/usr/bin/env bash
# Session 49: the narrow M-/N-major terms refitted since session 48 priced the narrow wgmma width
# (run 249's decode rows with N-major tokens, not copied; warm, fp16), per kernel configuration,
# and each row's prediction under the preset and under the 128 x 128 refit.
#   bash docs/results/2026-11-23-h200-headline/narrow_refit.sh > narrow_refit.txt  (repo root)
set -u
fit=build/tools/streamk-fit m=docs/results/2026-11-23-h200-mnmajor/run249
for model in alt small; do
  echo "== --model $model --fit narrow_mn_misaligned_iter_us,narrow_mn_iter_us"
  $fit --model $model --fit narrow_mn_misaligned_iter_us,narrow_mn_iter_us \
    $m/nn-off-1.csv $m/nn-off-2.csv | grep -E "measured plans|rms|narrow_mn"
done
for set in "" "narrow_mn_misaligned_iter_us=0.31,narrow_mn_iter_us=0.05"; do
  echo "== --model alt --rows ${set:+--set $set} (nn-off-1.csv)"
  $fit --model alt --rows ${set:+--set $set} $m/nn-off-1.csv | sed -n '/^set /,/^$/p'
done
