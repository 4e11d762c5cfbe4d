#!/usr/bin/env python3
"""Run 223's benchmark (run223/csv.tgz; or RUN_DIR/csv.tgz) as docs/performance.md's Results table
(python3 results.py [RUN_DIR] > results.txt):
per set and dtype, auto/dp and auto/cuBLAS (geomean, min, max, worst shape); where auto's plan
differs from dp's, the worst auto/dp (the issue's 3% rule); same plans that read below 0.97."""
import collections, csv, io, math, os, sys, tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
RUN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, 'run223')


def gm(v):
    return math.exp(sum(map(math.log, v)) / len(v))


def plan(r):
    p = f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']}"
    if r['plan_mode'] != 'dp':
        p += f" dp{r['dp_tiles']}+sk{r['sk_tiles']}/{r['sk_blocks']} {r['reduction']}"
    return p + (f" repack {r['repack']}" if r.get('repack') else '')


for dt in ('fp16', 'bf16'):
    rows = collections.defaultdict(dict)
    with tarfile.open(os.path.join(RUN, 'csv.tgz')) as tgz:
        text = tgz.extractfile(f'bench-{dt}.csv').read().decode()
    for r in csv.DictReader(io.StringIO(text)):
        if r['status'] != 'ok':
            print('not ok:', dt, r['set'], r['m'], r['n'], r['k'], r['mode'], r['status'])
            continue
        name = r['name'] or f"{r['m']}x{r['n']}x{r['k']}"
        if r['name']:
            name += f" {r['m']}x{r['n']}x{r['k']}"
        rows[(r['set'], name)][r['mode']] = r
    print(f"== {dt}")
    print(f"{'set':6s} {'n':>4s} {'auto/dp':>8s} {'min':>6s} {'max':>6s} {'worst vs dp':32s} "
          f"{'auto/cuBLAS':>11s} {'min':>6s} {'max':>6s} worst vs cuBLAS")
    differ = []
    same_low = []
    for s in ('paper', 'waveq', 'llm'):
        dp, cb = [], []
        for (st, name), m in rows.items():
            if st != s:
                continue
            a = float(m['auto']['time_us'])
            d = float(m['dp']['time_us']) / a
            dp.append((d, name))
            cb.append((float(m['cublas']['time_us']) / a, name))
            if plan(m['auto']) != plan(m['dp']):
                differ.append((d, name, plan(m['auto']), a, plan(m['dp']),
                               float(m['dp']['time_us'])))
            elif d < 0.97:
                same_low.append((round(d, 3), name, round(a, 1)))
        print(f"{s:6s} {len(dp):4d} {gm([x for x, _ in dp]):8.3f} {min(dp)[0]:6.3f} "
              f"{max(dp)[0]:6.3f} {min(dp)[1]:32s} {gm([x for x, _ in cb]):11.3f} "
              f"{min(cb)[0]:6.3f} {max(cb)[0]:6.3f} {min(cb)[1]}")
    differ.sort()
    print(f"plans differ on {len(differ)} of {len(rows)}; the worst five auto/dp:")
    for d, name, ap, a, dpp, dpt in differ[:5]:
        print(f"  {name:32s} {d:.3f}  auto {ap}: {a:.1f} us, dp {dpp}: {dpt:.1f}")
    print(f"same plan, below 0.97 (us of auto): {sorted(same_low)}")
