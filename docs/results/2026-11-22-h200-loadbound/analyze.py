# Session 19, run 93: the misaligned shapes of the paper sets with seeds 2 and 3 (fp16), out of
# sample for auto's new estimate (LoadBoundMicros). For each shape: auto before (the old rule's
# pick: its tile from picks-before.txt, timed as auto on that tile, or on the cluster tile where
# the old rule took clusters), auto now, and the best of blocks and clusters.
# Usage: python3 analyze.py run93/s2s3.csv picks-before.txt
import csv, math, sys, collections
rows = collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    if r['status'] != 'ok': continue
    rows[(r['name'], int(r['m']), int(r['n']), int(r['k']))][r['mode']] = r
old = {}
for line in open(sys.argv[2]):
    if line.startswith('#'): continue
    seed, shape, tile, kind, *_ = line.split()
    old[(seed, shape)] = (tile, kind)
def t(d, mode): return float(d[mode]['time_us'])
def gm(xs): return math.exp(sum(map(math.log, xs)) / len(xs))
before, now, best = [], [], []
print(f"{'shape':22s} {'before':>8s} {'now':>8s} {'now/before':>10s} {'blocks':>8s} {'clusters':>8s}  pick")
for key, d in sorted(rows.items(), key=lambda kv: (kv[0][0], kv[0][1:])):
    seed, m, n, k = key
    tile, kind = old[(seed, f"{m}x{n}x{k}")]
    b = t(d, 'auto/256x256x64') if kind == 'cl' else t(d, f'auto/{tile}')
    a = t(d, 'auto')
    blocks = min(t(d, 'auto/128x256x64'), t(d, 'auto/128x128x64'), t(d, 'dp'))
    clusters = min(t(d, 'auto/256x256x64'), t(d, 'dp/256x256x64'))
    before.append(b); now.append(a); best.append(min(blocks, clusters))
    now_cl = d['auto']['tile_m'] == '256'
    changed = now_cl != (kind == 'cl')
    if changed or now_cl or clusters < 0.97 * blocks:
        print(f"{seed} {m}x{n}x{k:<14} {b:8.1f} {a:8.1f} {b / a:10.3f} {blocks:8.1f} {clusters:8.1f}  "
              f"{'clusters' if now_cl else 'blocks'}{' (new)' if changed else ''}")
print(f"shapes {len(now)}: geomean before/now {gm([b / a for b, a in zip(before, now)]):.4f}, "
      f"best/now {gm([x / a for x, a in zip(best, now)]):.4f}, best/before {gm([x / b for x, b in zip(best, before)]):.4f}")
