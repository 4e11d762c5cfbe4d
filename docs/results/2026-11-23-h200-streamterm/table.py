#!/usr/bin/env python3
"""Session 41, run 230: ncu's counters per variant (the mean of the two launches each file
profiled) next to the bench's median time: python3 table.py."""
import glob
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
FIELDS = [('gpu__time_duration.sum', 'ncu us', 1), ('dram__bytes_read.sum', 'DRAM read MB', 1),
          ('dram__bytes_write.sum', 'DRAM write MB', 1),
          ('lts__t_sectors_op_read.sum', 'L2 read sectors M', 1e-6),
          ('lts__t_requests_op_read.sum', 'L2 read requests M', 1e-6),
          ('sm__throughput.avg.pct_of_peak_sustained_elapsed', 'SM throughput %', 1)]
NAMES = {('off', '128x128'): '128x128 shared', ('on', '128x128'): '128x128 ping-pong',
         ('off', '128x256'): '128x256'}


def bench_us(shape, pingpong, tile):
    text = open(os.path.join(HERE, 'run230', 'bench-%s-%s.txt' % (shape, pingpong))).read()
    head = next(l for l in text.splitlines() if l.startswith('set '))
    row = next(l for l in text.splitlines() if l.startswith('cli '))
    cols = head.split()
    return float(row.split()[cols.index('dp/%sx64_us' % tile)])


print('| shape (D) | variant | bench us | ' + ' | '.join(f[1] for f in FIELDS) + ' |')
print('| --- | --- | ---: | ' + ' | '.join('---:' for _ in FIELDS) + ' |')
for shape, dbytes in (('8192x8192x768', '134 MB'), ('4224x4096x768', '35 MB')):
    for (pp, tile), name in NAMES.items():
        text = open(os.path.join(HERE, 'run230', 'ncu-%s-%s-dp_%sx64.txt' % (shape, pp, tile))).read()
        vals = []
        for metric, _, scale in FIELDS:
            xs = [float(x.replace(',', '')) for x in
                  re.findall(re.escape(metric) + r'\s+\S+\s+([\d,.]+)', text)]
            vals.append('%.1f' % (sum(xs) / len(xs) * scale))
        print('| %s (%s) | %s | %.1f | %s |' % (shape, dbytes, name, bench_us(shape, pp, tile),
                                                ' | '.join(vals)))
