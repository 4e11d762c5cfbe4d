# Session 24: Stream-K blocks loading whole tiles rotated (runs 132-133), against the build
# before. Per mode, the geomean of time(before) / time(rotated) over the shapes (medians of the
# passes), min and max; with --shapes, every shape's times.
# Usage: python3 rotation.py run132/ab.tgz old new           (run 132: builds "old" and "new")
#        python3 rotation.py run133/ab.tgz gpu gpu-exp --shapes (run 133: before and rotated)
import collections, csv, io, math, statistics, sys, tarfile

tgz, before, after = sys.argv[1:4]
times = {before: collections.defaultdict(list), after: collections.defaultdict(list)}
with tarfile.open(tgz) as t:
    for member in t.getmembers():
        build = member.name[len('ab-'):].rsplit('-', 1)[0]
        if build not in times:
            continue
        for r in csv.DictReader(io.StringIO(t.extractfile(member).read().decode())):
            if r['status'] == 'ok':
                times[build][(r['set'], f"{r['m']}x{r['n']}x{r['k']}", r['mode'])].append(float(r['time_us']))
per_mode = collections.defaultdict(list)
for key, v in sorted(times[after].items()):
    ratio = statistics.median(times[before][key]) / statistics.median(v)
    per_mode[(key[0], key[2])].append((ratio, key[1]))
    if '--shapes' in sys.argv:
        print(f"{key[0]:6} {key[1]:18} {key[2]:20} before {statistics.median(times[before][key]):8.1f} "
              f"rotated {statistics.median(v):8.1f}  {ratio:.3f}")
for (s, mode), v in sorted(per_mode.items()):
    v.sort()
    g = math.exp(sum(math.log(r) for r, _ in v) / len(v))
    print(f"{s:6} {mode:20} {len(v):3} shapes: time(before) / time(rotated) {g:.3f}, "
          f"min {v[0][0]:.3f} ({v[0][1]}), max {v[-1][0]:.3f} ({v[-1][1]})")
