#!/usr/bin/env python3
"""Session 51: each shape's mean SM clock and power over its window (run 270's prog-N.txt stamps
against clock.csv), beside auto/dp and dp's time, per pass.

  python3 docs/results/2026-11-24-h200-clock/clock.py RUN_DIR"""
import csv, datetime, sys, statistics
run = sys.argv[1]
samples = []
with open(f'{run}/clock.csv') as f:
    next(f)
    for line in f:
        p = [x.strip() for x in line.split(',')]
        try:
            t = datetime.datetime.strptime(p[0], '%Y/%m/%d %H:%M:%S.%f').replace(
                tzinfo=datetime.timezone.utc).timestamp()
            samples.append((t, float(p[1]), float(p[3])))
        except (ValueError, IndexError):
            pass
# nvidia-smi stamps local time; align its first sample with the first pass's start.
passes = [float(l.split()[-1]) for l in open(f'{run}/passes.txt')]
npass = len(passes) - 1
offset = None
for p in range(1, npass + 1):
    prog = [l.split(None, 1) for l in open(f'{run}/prog-{p}.txt') if '] file' in l]
    starts = [float(x[0]) for x in prog] + [passes[p]]
    names = [x[1].split()[-1] for x in prog]
    if offset is None:  # timezone: nearest whole hour
        offset = round((samples[0][0] - passes[0]) / 3600) * 3600
    rows = {}
    with open(f'{run}/rows-{p}.csv') as fh:
        for r in csv.DictReader(fh):
            rows.setdefault(f"{r['m']}x{r['n']}x{r['k']}", {})[r['mode']] = float(r['time_us'])
    print(f'pass {p}')
    for i, n in enumerate(names):
        w = [s for s in samples if starts[i] <= s[0] - offset < starts[i + 1]]
        clk = statistics.mean(s[1] for s in w) if w else float('nan')
        pw = statistics.mean(s[2] for s in w) if w else float('nan')
        t = rows[n]
        print(f'  {n:18s} clock {clk:6.0f} MHz power {pw:5.0f} W  auto {t["auto"]:7.1f} '
              f'dp {t["dp"]:7.1f} dp/auto {t["dp"] / t["auto"]:.3f} '
              f'tail/auto {t["streamk-tail/128x256x64"] / t["auto"]:.3f} n={len(w)}')
