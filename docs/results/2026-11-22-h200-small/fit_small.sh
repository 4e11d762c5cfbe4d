#!/usr/bin/env bash
# Session 31: how DeviceSpec::small_cost (kHopperTmaSmallCost, lib/device_spec.cc) was fitted, from
# run 168's CSVs (auto, dp, and data-parallel, split-K and Stream-K plans of the 64 x 128 tile on
# the small, decode and few-tile shapes and the paper, llm and waveq sets, fp16). Needs a build.
#   bash docs/results/2026-11-22-h200-small/fit_small.sh [FIELDS]
# (EXTRA_CSVS: more CSVs to fit on, paths from the repository root.)
# 1. Per shape, the error (predicted / measured) of the other tiles' models on the plans auto and
#    dp ran there: the planner compares the 64 x 128 tile's predictions with those, so it is
#    fitted on their scale (as the 192 x 192 tile was, ../2026-11-22-h200-wide/fit_wide.sh).
# 2. Scale every 64 x 128 row's time by its shape's error and fit with streamk-fit --model small,
#    on the shapes auto weighs the tile for: at most one round of its tiles (132; the kernel's
#    64-row side is D's columns, bench N).
set -euo pipefail
cd "$(dirname "$0")/../../.."
fit=build/tools/streamk-fit
r=docs/results/2026-11-22-h200-small/run168
csvs="$r/small-shapes.csv $r/decode-shapes.csv $r/separate-shapes.csv $r/paper.csv $r/llm.csv"
csvs="$csvs $r/waveq.csv ${EXTRA_CSVS:-}"
fields=${1:-iter_us,iter_busy_us,block_us,unit_us,epilogue_us,partial_us,peer_us,reduce_peer_us,misaligned_load,misaligned_busy_load}
tmp=$(mktemp -d)
for m in main alt mid wide cluster; do
  # shellcheck disable=SC2086
  "$fit" --model "$m" --rows $csvs | awk '/^set +name +shape +plan/,/^$/' | grep -v '^set ' \
    >> "$tmp/others.txt" || true
done
# shellcheck disable=SC2086
python3 - "$tmp/others.txt" "$tmp/scaled.csv" $csvs <<'PY'
import collections, csv, math, re, sys
err = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.search(r'\b(\d+x\d+x\d+)\b', line)
    if m:
        err[m.group(1)].append(float(line.split()[-1]))
scale = {k: math.exp(sum(map(math.log, v)) / len(v)) for k, v in err.items()}
rows = []
for f in sys.argv[3:]:
    rows += list(csv.DictReader(open(f)))
out = []
for r in rows:
    if r['status'] != 'ok' or r['tile_m'] != '64':
        continue
    if -(-int(r['n']) // 64) * -(-int(r['m']) // 128) > 132:
        continue
    r = dict(r)
    r['time_us'] = '%.3f' % (float(r['time_us']) * scale[f"{r['m']}x{r['n']}x{r['k']}"])
    out.append(r)
w = csv.DictWriter(open(sys.argv[2], 'w', newline=''), fieldnames=rows[0].keys())
w.writeheader()
w.writerows(out)
print(f"{len(out)} rows of 64x128 plans over {len(scale)} shapes; geomean scale "
      f"{math.exp(sum(map(math.log, scale.values())) / len(scale)):.3f}")
PY
"$fit" --model small --fit "$fields" "$tmp/scaled.csv" | sed -n '1,18p'
rm -rf "$tmp"
