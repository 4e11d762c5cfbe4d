#!/usr/bin/env bash
# Session 32: how the 64 x 128 tile's exchange terms (kHopperTmaSmallCost's streamk_us,
# partial_us, peer_us, reduce_peer_us, reduce_latency_us; lib/device_spec.cc) were refitted:
# session 31's fit (../2026-11-22-h200-small/fit_small.sh, run 168) with run 172's split-K plans
# of the tile added, its other constants kept. Needs a build.
#   bash docs/results/2026-11-22-h200-deep/fit_small_exchange.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
r=docs/results/2026-11-22-h200-deep/run172
EXTRA_CSVS="$r/deep.csv $r/decode.csv $r/few.csv" \
  bash docs/results/2026-11-22-h200-small/fit_small.sh \
  streamk_us,partial_us,peer_us,reduce_peer_us,reduce_latency_us
