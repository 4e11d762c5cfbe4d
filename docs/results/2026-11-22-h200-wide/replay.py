# Session 25: auto's picks replayed by streamk-fit on run 137's CSV (every plan a pick could be was
# measured there), against run 137's own auto (the build before auto weighed 192 x 192 tiles):
# per set the geomean of time(old auto) / time(new pick) and auto/cuBLAS before and after, and
# every shape whose time moved by more than 3%.
# Usage: build/tools/streamk-fit run137/wide-fp16.csv | python3 replay.py run137/wide-fp16.csv
import collections, csv, math, re, sys

t = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r['status'] == 'ok':
        t[(r['set'], r['m'], r['n'], r['k'], r['mode'])] = float(r['time_us'])
moved = collections.defaultdict(list)
cub_old = collections.defaultdict(list)
cub_new = collections.defaultdict(list)
table = False
for line in sys.stdin:
    if line.startswith('set ') and 'auto pick' in line:
        table = True
        continue
    f = line.split()
    if not table or not f or f[0] not in ('waveq', 'paper', 'llm'):
        continue
    shape = re.search(r'(\d+)x(\d+)x(\d+)', line)
    if shape is None:  # the summary lines
        continue
    key = (f[0],) + shape.groups()
    pick = float(re.findall(r'\s(\d+\.\d+)\s', line)[0])
    old = t[key + ('auto',)]
    moved[f[0]].append(old / pick)
    cub_old[f[0]].append(t[key + ('cublas',)] / old)
    cub_new[f[0]].append(t[key + ('cublas',)] / pick)
    if abs(old / pick - 1) > 0.03:
        plan = re.search(r'\d+x\d+x\d+\s+(.*?)\s+\d+\.\d+\s', line).group(1)
        print(f"{f[0]:6} {'x'.join(key[1:]):18} pick {plan:34} {old:7.1f} -> {pick:7.1f} us  {old / pick:.3f}")
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
for s in moved:
    print(f"{s}: {len(moved[s])} shapes, time(old auto) / time(new pick) {g(moved[s]):.3f} "
          f"(min {min(moved[s]):.3f}, max {max(moved[s]):.3f}); auto/cuBLAS {g(cub_old[s]):.3f} -> {g(cub_new[s]):.3f}")
