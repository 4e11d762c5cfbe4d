# Session 19, run 95: auto against dp on every K-misaligned shape of the paper sets with seeds 1-3
# (fp16): geomean, and where the two plans differ, the worst ratios (the 3% rule).
# Usage: python3 rule_check.py run95/as-is.csv
import csv, collections, math, sys
rows = collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    rows[(r['name'], r['m'], r['n'], r['k'])][r['mode']] = r
fields = ('plan_mode', 'dp_tiles', 'sk_tiles', 'sk_blocks', 'tile_m', 'tile_n', 'repack')
ratio = {k: float(d['dp']['time_us']) / float(d['auto']['time_us']) for k, d in rows.items()}
differ = sorted((ratio[k], k) for k, d in rows.items()
                if any(d['auto'][f] != d['dp'][f] for f in fields))
print(f"shapes {len(rows)}: auto/dp geomean {math.exp(sum(map(math.log, ratio.values())) / len(ratio)):.4f}; "
      f"on clusters {sum(d['auto']['tile_m'] == '256' for d in rows.values())}")
print(f"plans differ on {len(differ)}; worst:")
for r, k in differ[:4]:
    d = rows[k]['auto']
    print(f"  {k[0]} {k[1]}x{k[2]}x{k[3]} auto/dp {r:.3f} (auto {d['plan_mode']} {d['tile_m']}x{d['tile_n']} "
          f"sk_blocks {d['sk_blocks']}: {float(d['time_us']):.1f} us, dp {float(rows[k]['dp']['time_us']):.1f})")
print("same plan, below 0.97:", [(round(ratio[k], 3), f"{k[1]}x{k[2]}x{k[3]}") for k, d in rows.items()
                                 if ratio[k] < 0.97 and not any(d['auto'][f] != d['dp'][f] for f in fields)])
