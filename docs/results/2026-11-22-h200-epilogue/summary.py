#!/usr/bin/env python3
"""Before/after tables of runs 203, 204 and 206 (session 37: the epilogue's stmatrix staging).

Each shape's time is the median of its passes per build (the mean of two) (streamk-bench's median of
repetitions per pass); the ratio is before / after (> 1: after is faster).
  python3 summary.py > summary.txt
"""
import collections
import csv
import glob
import math
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def table(pattern, key_fields, mode='auto'):
    times = collections.defaultdict(lambda: collections.defaultdict(list))
    for path in sorted(glob.glob(os.path.join(HERE, pattern))):
        build = 'before' if '-before-' in os.path.basename(path) else 'after'
        for r in csv.DictReader(open(path)):
            if r['mode'] == mode and r['status'] == 'ok':
                times[tuple(r[f] for f in key_fields)][build].append(float(r['time_us']))
    rows = []
    for key, d in sorted(times.items()):
        b, a = statistics.median(d['before']), statistics.median(d['after'])
        rows.append((key, b, a, b / a, len(d['before']), len(d['after'])))
    return rows


def show(title, rows):
    print(f'## {title}')
    print(f'{"shape":40s} {"before_us":>10s} {"after_us":>10s} {"ratio":>7s}  passes')
    for key, b, a, r, nb, na in rows:
        print(f'{" ".join(key):40s} {b:10.1f} {a:10.1f} {r:7.3f}  {nb}+{na}')
    ratios = [r[3] for r in rows]
    print(f'geomean {geomean(ratios):.4f}, min {min(ratios):.3f}, max {max(ratios):.3f} '
          f'over {len(ratios)} shapes\n')


show('run 203: six shapes, fp16 and bf16, three passes alternating',
     table('run203/shapes-*.csv', ['dtype', 'm', 'n', 'k']))
show("run 203: the issue's waveq set (fp16), two passes alternating",
     table('run203/waveq-*.csv', ['m', 'n', 'k']))
show('run 206 (after the review commit: one BoxOffset): the same shapes, three passes',
     table('run206/shapes-*.csv', ['dtype', 'm', 'n', 'k']))
show('run 204: K-misaligned shapes auto runs on 2-SM clusters, two passes alternating',
     table('run204/cluster-*.csv', ['m', 'n', 'k']))
show('run 204: the llm set (fp16), two passes alternating',
     table('run204/llm-*.csv', ['name', 'm', 'n', 'k']))
show('run 204: the llm set, cuBLAS in the same passes (the machine\'s drift between passes)',
     table('run204/llm-*.csv', ['name', 'm', 'n', 'k'], mode='cublas'))
