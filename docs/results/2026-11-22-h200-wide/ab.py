# Session 25: a build against HEAD's, per mode, from CSVs of the same modes (two passes each,
# alternating). Per shape and mode the mean of the passes; per set and mode the geomean of
# time(old) / time(new) (above 1: the new build is faster), its min and max, and the shapes where
# the two builds ran different plans.
# Usage: python3 ab.py NEW1.csv,NEW2.csv OLD1.csv,OLD2.csv
import collections, csv, math, sys


def load(paths):
    times, plans = collections.defaultdict(list), {}
    for path in paths.split(','):
        for r in csv.DictReader(open(path)):
            if r['status'] != 'ok':
                continue
            k = (r['mode'], r['set'], r['name'], r['m'], r['n'], r['k'])
            times[k].append(float(r['time_us']))
            plans[k] = f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']} dp{r['dp_tiles']}+sk{r['sk_tiles']}/{r['sk_blocks']}"
    return {k: sum(v) / len(v) for k, v in times.items()}, plans


def geomean(v):
    return math.exp(sum(map(math.log, v)) / len(v)) if v else float('nan')


new_t, new_p = load(sys.argv[1])
old_t, old_p = load(sys.argv[2])
groups = collections.defaultdict(list)
worst = collections.defaultdict(list)
for k in sorted(new_t):
    if k not in old_t:
        continue
    r = old_t[k] / new_t[k]
    if new_p[k] != old_p[k]:
        print(f"plan moved: {k}: {old_p[k]} -> {new_p[k]}")
    groups[(k[1], k[0])].append(r)
    worst[(k[1], k[0])].append((r, f"{k[3]}x{k[4]}x{k[5]}", old_t[k], new_t[k]))
print("set    mode      shapes  old/new geomean    min    max   slowest (old us -> new us)")
for (s, mode), v in sorted(groups.items()):
    lo = min(worst[(s, mode)])
    print(f"{s:6} {mode:8} {len(v):6}  {geomean(v):14.3f} {min(v):6.3f} {max(v):6.3f}   "
          f"{lo[1]} ({lo[2]:.1f} -> {lo[3]:.1f})")
