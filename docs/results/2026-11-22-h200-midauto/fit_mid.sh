#!/usr/bin/env bash
# Session 24: how DeviceSpec::mid_cost (kHopperTmaMidCost, lib/device_spec.cc) was fitted, from
# run 125's CSV (../2026-11-22-h200-mainloop/run125/tiles-fp16.csv). Needs a build (build/tools).
#   bash docs/results/2026-11-22-h200-midauto/fit_mid.sh
# 1. Drop the all-tiles Stream-K rows over more than two 128x192 tiles per block: they ran up to
#    1.7x over any constants of this model (their blocks lose the L2's operand reuse, run 130),
#    and auto does not plan them.
# 2. Scale every 128x192 row's time by the 128x256 model's error (predicted / measured) on the
#    same shape's data-parallel 128x256 plan: the planner compares the two tiles' predictions, so
#    this tile is fitted on the main tile's scale (on average 1.12x over run 125's times).
# 3. Fit with streamk-fit --model mid.
set -euo pipefail
cd "$(dirname "$0")/../../.."
fit=build/tools/streamk-fit
csv=docs/results/2026-11-22-h200-mainloop/run125/tiles-fp16.csv
tmp=$(mktemp -d)
python3 - "$csv" "$tmp/rows.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
keep = [r for r in rows if not (r['tile_n'] == '192' and r['plan_mode'] == 'streamk' and r['dp_tiles'] == '0'
                                and int(r['sk_tiles']) > 2 * int(r['sk_blocks']))]
w = csv.DictWriter(open(sys.argv[2], 'w', newline=''), fieldnames=rows[0].keys())
w.writeheader()
w.writerows(keep)
PY
# The 128x256 model's data-parallel rows: shape and predicted / measured (--rows).
"$fit" --model main --rows "$tmp/rows.csv" | awk '/^set +name +shape +plan/,/^$/' | grep "dp 128x256 " \
  > "$tmp/main.txt"
python3 - "$tmp/rows.csv" "$tmp/main.txt" "$tmp/scaled.csv" <<'PY'
import collections, csv, math, re, sys
err = collections.defaultdict(list)
for line in open(sys.argv[2]):
    err[re.search(r'\b(\d+x\d+x\d+)\b', line).group(1)].append(float(line.split()[-1]))
scale = {k: math.exp(sum(map(math.log, v)) / len(v)) for k, v in err.items()}
rows = list(csv.DictReader(open(sys.argv[1])))
out = []
for r in rows:
    if r['tile_n'] != '192':
        continue
    r = dict(r)
    r['time_us'] = '%.3f' % (float(r['time_us']) * scale[f"{r['m']}x{r['n']}x{r['k']}"])
    out.append(r)
w = csv.DictWriter(open(sys.argv[3], 'w', newline=''), fieldnames=rows[0].keys())
w.writeheader()
w.writerows(out)
print(f"{len(out)} rows of 128x192 plans over {len(scale)} shapes; mean log scale "
      f"{sum(map(math.log, scale.values())) / len(scale):.3f}")
PY
"$fit" --model mid --fit iter_us,iter_busy_us,unit_us,epilogue_us,partial_us,streamk_us,block_us,peer_us,misaligned_load,misaligned_busy_load \
  "$tmp/scaled.csv" | sed -n '1,16p'
rm -rf "$tmp"
