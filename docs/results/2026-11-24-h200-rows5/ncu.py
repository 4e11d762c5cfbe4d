#!/usr/bin/env python3
"""Session 52: run 282's ncu readings per shape (the last launch of each kernel: cuBLAS's, then
auto's streamk kernel): kernel, grid, cluster, time, DRAM bytes read, L2 hit rate, SM throughput,
SM clock.

  python3 docs/results/2026-11-24-h200-rows5/ncu.py RUN_DIR"""
import glob, os, re, sys
run = sys.argv[1]
KEYS = {'gpu__time_duration.sum': 'us', 'launch__grid_size': 'grid',
        'launch__cluster_dim_x': 'cx', 'launch__cluster_dim_y': 'cy',
        'dram__bytes_read.sum': 'MB', 'lts__t_sector_hit_rate.pct': 'L2hit',
        'sm__throughput.avg.pct_of_peak_sustained_elapsed': 'SM%',
        'sm__cycles_elapsed.avg.per_second': 'GHz'}
print(f"{'shape':22s} {'kernel':52s} {'grid':>4s} {'cl':>3s} {'us':>7s} {'DRAM MB':>8s} "
      f"{'L2 hit':>6s} {'SM%':>5s} {'GHz':>5s}")
for f in sorted(glob.glob(f'{run}/ncu-*.txt')):
    shape = os.path.basename(f)[4:-4]
    last, cur = {}, None
    for line in open(f):
        m = re.match(r'\s{2}(\S.*?) \(\d+, \d+, \d+\)x\(', line)
        if m:
            name = m.group(1)
            name = 'streamk ' + re.sub(r'.*<(.*?)>.*', r'<\1>', name) if 'streamk' in name else name
            cur = last.setdefault('ours' if 'streamk' in name else 'cublas', {'name': name})
            continue
        m = re.match(r'\s+(\S+)\s+(?:\S+\s+)?([\d.,]+)\s*$', line)
        if cur is not None and m and m.group(1) in KEYS:
            v = float(m.group(2).replace(',', ''))
            if m.group(1) == 'dram__bytes_read.sum' and 'Gbyte' in line:
                v *= 1000
            cur[KEYS[m.group(1)]] = v
    for who in ('cublas', 'ours'):
        r = last.get(who)
        if r:
            label = shape if who == 'cublas' else ''
            print(f"{label:22s} {r['name'][:52]:52s} {r.get('grid', 0):4.0f} "
                  f"{r.get('cx', 0):.0f}x{r.get('cy', 0):.0f} {r.get('us', 0):7.1f} "
                  f"{r.get('MB', 0):8.1f} {r.get('L2hit', 0):6.1f} {r.get('SM%', 0):5.1f} "
                  f"{r.get('GHz', 0):5.2f}")
