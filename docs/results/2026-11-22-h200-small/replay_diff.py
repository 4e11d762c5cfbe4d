# The shapes whose auto pick moved between two streamk-fit replays (before, after), with the
# measured time of each pick and the ratio; a pick not measured reads '-'.
import math, re, sys
def load(f):
    d = {}
    for l in open(f):
        m = re.match(r'^(\S+)\s+(\S*?)\s*(\d+x\d+x\d+)\s+(.*?)\s+([\d.]+|-)\s+([\d.]+|-)\s+([\d.]+|-)\s+(.*)$', l.rstrip())
        if m and m.group(1) != 'set':
            d[(m.group(1), m.group(2), m.group(3))] = (m.group(4), m.group(5))
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
moved = []
for k in b:
    if k in a and a[k][0] != b[k][0]:
        r = float(a[k][1]) / float(b[k][1]) if '-' not in (a[k][1], b[k][1]) else None
        moved.append((r or 0, k, a[k], b[k]))
for r, k, x, y in sorted(moved, key=lambda t: t[0]):
    print(f"{k[0]:6} {k[1] or '-':18} {k[2]:18} {x[0]:34} {x[1]:>6} -> {y[0]:34} {y[1]:>6}  {r:5.3f}")
rs = [m[0] for m in moved if m[0]]
if not rs: sys.exit(f"{len(moved)} picks moved, none measured both ways")
print(f"{len(moved)} picks moved, {len(rs)} measured both ways: geomean {math.exp(sum(map(math.log, rs)) / len(rs)):.3f}, "
      f"min {min(rs):.3f}, max {max(rs):.3f}; {sum(r < 0.97 for r in rs)} slower by over 3%")
