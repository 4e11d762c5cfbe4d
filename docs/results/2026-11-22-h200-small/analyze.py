# Per shape of run 168's CSVs: auto's time, the best 64 x 128 plan's, and the 128 x 128 tile count
# (kernel m = bench n, kernel n = bench m), to see where the small tile wins.
import csv, collections, math, sys
rows = []
for f in sys.argv[1:]:
    rows += [r for r in csv.DictReader(open(f)) if r['status'] == 'ok']
by = collections.defaultdict(dict)
for r in rows:
    by[(r['set'], r['name'], int(r['m']), int(r['n']), int(r['k']))][r['mode']] = float(r['time_us'])
out = []
for (st, name, m, n, k), t in by.items():
    small = {md: v for md, v in t.items() if '/64x128' in md}
    if not small or 'auto' not in t: continue
    best = min(small, key=small.get)
    tiles128 = math.ceil(m / 128) * math.ceil(n / 128)
    out.append((t['auto'] / small[best], st, f"{m}x{n}x{k}", tiles128, best, t['auto'], small[best], t.get('cublas', 0)))
out.sort(key=lambda x: x[3])
wins = 0
for g, st, s, tl, best, a, b, c in out:
    if g > 1.03: wins += 1
    print(f"{st:6} {s:18} tiles128={tl:5d} auto={a:8.1f} best64={b:8.1f} ({best:22}) gain={g:5.2f} cublas={c:7.1f}")
print("shapes", len(out), "won by >3%:", wins)
