# Session 24: this build's auto against HEAD's, from CSVs of the same modes (run 129: auto,dp,
# two passes each, alternating). Per shape the mean of the passes; the shapes whose plan moved
# are listed, and per set the geomean of time(HEAD) / time(new) over all, same-plan and moved shapes.
# Usage: python3 ab.py run129/ab-new-1.csv,run129/ab-new-2.csv run129/ab-head-1.csv,run129/ab-head-2.csv
import collections, csv, math, sys


def load(paths):
    times, plans = collections.defaultdict(list), {}
    for path in paths.split(','):
        for r in csv.DictReader(open(path)):
            if r['status'] != 'ok' or r['mode'] != 'auto':
                continue
            k = (r['set'], r['name'], r['m'], r['n'], r['k'])
            times[k].append(float(r['time_us']))
            plans[k] = (f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']} dp{r['dp_tiles']}+sk{r['sk_tiles']}/"
                        f"{r['sk_blocks']}{' ' + r['repack'] if r['repack'] else ''}")
    return {k: sum(v) / len(v) for k, v in times.items()}, plans


def geomean(v):
    return math.exp(sum(map(math.log, v)) / len(v)) if v else float('nan')


new_t, new_p = load(sys.argv[1])
head_t, head_p = load(sys.argv[2])
sets = collections.defaultdict(lambda: {'all': [], 'same': [], 'moved': []})
for k in new_t:
    r = head_t[k] / new_t[k]
    s = sets[k[0]]
    s['all'].append(r)
    if new_p[k] == head_p[k]:
        s['same'].append(r)
        continue
    s['moved'].append(r)
    print(f"{k[0]:6} {k[1]:14} {k[2]}x{k[3]}x{k[4]:<6} HEAD {head_p[k]:30} {head_t[k]:8.1f}  "
          f"new {new_p[k]:30} {new_t[k]:8.1f}  {r:.3f}")
for name, s in sets.items():
    moved = s['moved'] or [float('nan')]
    print(f"{name}: {len(s['all'])} shapes, time(HEAD) / time(new) geomean {geomean(s['all']):.3f}; "
          f"same plan {len(s['same'])} {geomean(s['same']):.3f}; moved {len(s['moved'])} "
          f"{geomean(s['moved']):.3f} (min {min(moved):.3f}, max {max(moved):.3f})")
