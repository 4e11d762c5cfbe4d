#!/usr/bin/env python3
"""Run 142: the planner's estimate (streamk-plan, H200 model) of auto with the copies forced onto
the user's A, B or both against the measured time. Usage: predict.py RUN_DIR STREAMK_PLAN"""
import csv, math, re, subprocess, sys, collections
d, tool = sys.argv[1], sys.argv[2]
meas = collections.defaultdict(dict)
for r in ('a', 'b', 'on'):
    for row in csv.DictReader(open(f'{d}/repack-{r}.csv')):
        if row['mode'] == 'auto' and row['status'] == 'ok':
            meas[(int(row['m']), int(row['n']), int(row['k']))][r] = float(row['time_us'])
# The bench's M x N x K is the kernel's N x M x K: the user's A is the kernel's B.
kernel = {'a': 'b', 'b': 'a', 'on': 'on'}
ratios = collections.defaultdict(list)
for (m, n, k), v in sorted(meas.items()):
    line = []
    for r, t in sorted(v.items()):
        out = subprocess.run([tool, str(n), str(m), str(k), '--device', 'h200', '--misaligned',
                              'both', '--repack', kernel[r]], capture_output=True, text=True).stdout
        p = float(re.search(r'predicted\s+([0-9.]+) us', out).group(1))
        ratios[r].append(p / t)
        line.append('%s %6.1f/%6.1f' % (r, p, t))
    print('%-18s' % f'{m}x{n}x{k}', '  '.join(line))
for r, l in ratios.items():
    print(r, 'predicted/measured geomean %.3f min %.3f max %.3f' % (
        math.exp(sum(map(math.log, l)) / len(l)), min(l), max(l)))
