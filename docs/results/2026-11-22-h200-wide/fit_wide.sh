#!/usr/bin/env bash
# Session 25: how DeviceSpec::wide_cost (kHopperTmaWideCost, lib/device_spec.cc) was fitted, from
# run 137's CSV (run137/wide-fp16.csv: auto, dp, dp/192x192x64, streamk/192x192x64 and cuBLAS on
# the issue's sets, fp16). Needs a build (build/tools).
#   bash docs/results/2026-11-22-h200-wide/fit_wide.sh
# 1. Per shape, the error (predicted / measured) of the planner's models on the plans auto and dp
#    ran there (each plan priced by its own tile's model): the planner compares the 192 x 192
#    tile's prediction with those, so it is fitted on their scale.
# 2. Scale every data-parallel 192 x 192 row's time by its shape's error, and fit the fields a
#    data-parallel plan uses with streamk-fit --model wide (auto weighs only this tile's
#    data-parallel plans; its Stream-K and split-K plans keep the main tile's other constants).
set -euo pipefail
cd "$(dirname "$0")/../../.."
fit=build/tools/streamk-fit
csv=docs/results/2026-11-22-h200-wide/run137/wide-fp16.csv
tmp=$(mktemp -d)
for m in main alt mid cluster; do
  "$fit" --model "$m" --rows "$csv" | awk '/^set +name +shape +plan/,/^$/' | grep -v '^set ' \
    >> "$tmp/others.txt" || true
done
python3 - "$csv" "$tmp/others.txt" "$tmp/scaled.csv" <<'PY'
import collections, csv, math, re, sys
err = collections.defaultdict(list)
for line in open(sys.argv[2]):
    m = re.search(r'\b(\d+x\d+x\d+)\b', line)
    if m:
        err[m.group(1)].append(float(line.split()[-1]))
scale = {k: math.exp(sum(map(math.log, v)) / len(v)) for k, v in err.items()}
rows = list(csv.DictReader(open(sys.argv[1])))
out = []
for r in rows:
    if r['status'] != 'ok' or r['tile_m'] != '192' or r['plan_mode'] != 'dp':
        continue
    r = dict(r)
    r['time_us'] = '%.3f' % (float(r['time_us']) * scale[f"{r['m']}x{r['n']}x{r['k']}"])
    out.append(r)
w = csv.DictWriter(open(sys.argv[3], 'w', newline=''), fieldnames=rows[0].keys())
w.writeheader()
w.writerows(out)
print(f"{len(out)} data-parallel rows of 192x192 plans over {len(scale)} shapes; geomean scale "
      f"{math.exp(sum(map(math.log, scale.values())) / len(scale)):.3f}")
PY
"$fit" --model wide --fit iter_us,iter_busy_us,block_us,unit_us,epilogue_us,misaligned_load,misaligned_busy_load \
  "$tmp/scaled.csv" | sed -n '1,17p'
rm -rf "$tmp"
