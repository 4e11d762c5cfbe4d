# Programmatic launch on against off, from streamk-bench CSVs of alternating passes:
#   python3 pdl_ab.py DIR PREFIX [x]   (reads DIR/PREFIX-{true,false}-{1,2}.csv; x: per shape)
import csv, sys, math, collections
# time per (set, shape, mode) per file
def load(p):
    t = {}
    for r in csv.DictReader(open(p)):
        if r['status'] != 'ok': continue
        t[(r['set'], r['name'] or f"{r['m']}x{r['n']}x{r['k']}", r['m'], r['n'], r['k'], r['mode'])] = float(r['time_us'])
    return t
d = sys.argv[1]; prefix = sys.argv[2] if len(sys.argv) > 2 else 'ab'
on = [load(f'{d}/{prefix}-true-{i}.csv') for i in (1, 2)]
off = [load(f'{d}/{prefix}-false-{i}.csv') for i in (1, 2)]
keys = sorted(set(on[0]) & set(on[1]) & set(off[0]) & set(off[1]))
def g(xs): return math.exp(sum(math.log(x) for x in xs) / len(xs))
by = collections.defaultdict(list)
rows = []
for k in keys:
    ton = (on[0][k] + on[1][k]) / 2; toff = (off[0][k] + off[1][k]) / 2
    # noise: same setting's two passes
    noise = max(on[0][k] / on[1][k], on[1][k] / on[0][k], off[0][k] / off[1][k], off[1][k] / off[0][k])
    by[(k[0], k[5])].append(toff / ton)
    rows.append((k, toff, ton, toff / ton, noise))
print("time(off) / time(on), geomean per set and mode (> 1: programmatic launch faster)")
for (s, m), v in sorted(by.items()):
    print(f"  {s:6s} {m:7s} {len(v):4d} shapes  geomean {g(v):.4f}  min {min(v):.3f}  max {max(v):.3f}")
# by time bucket for auto
print("auto, by time with the launch off:")
for lo, hi in [(0, 15), (15, 30), (30, 60), (60, 150), (150, 1e9)]:
    v = [r[3] for r in rows if r[0][5] == 'auto' and lo <= r[1] < hi]
    if v: print(f"  {lo:>4}-{hi if hi < 1e9 else 'inf':>4} us: {len(v):4d} shapes  geomean {g(v):.4f}  mean saving {sum(r[1]-r[2] for r in rows if r[0][5]=='auto' and lo <= r[1] < hi)/len(v):.2f} us")
if len(sys.argv) > 3:
    for r in rows:
        if r[0][5] != 'cublas' or True:
            print(f"  {r[0][0]:6s} {r[0][1]:>22s} {r[0][5]:7s} off {r[1]:8.1f} on {r[2]:8.1f}  {r[3]:.3f}  noise {r[4]:.3f}")
