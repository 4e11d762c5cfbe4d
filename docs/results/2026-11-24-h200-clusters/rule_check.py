#!/usr/bin/env python3
"""Session 56, run 301: the 3% rule out of sample (rule_shapes.txt): auto against dp per shape,
medians of the three passes per dtype (fp16 two, bf16 one), by what auto runs instead of dp's
plan; the shapes auto runs 3% or more behind dp in either dtype.

  python3 rule_check.py > rule_check.txt"""
import csv, os, statistics
here = os.path.dirname(os.path.abspath(__file__))
kind = {}
for l in open(os.path.join(here, 'rule_shapes.txt')):
    f = l.split()
    kind[f[0]] = ('misaligned ' if f[0][0] == 'm' else 'aligned ') + f[5]
t = {}
for p in ('tn-fp16-1', 'tn-fp16-2', 'tn-bf16-1'):
    for r in csv.DictReader(open(os.path.join(here, 'run301', p + '.csv'))):
        if r['status'] == 'ok':
            t.setdefault((r['name'], r['dtype'], r['mode']), []).append(r)
        elif r['mode'] != 'cublas':
            print('not ok:', r['name'], r['dtype'], r['mode'], r['status'])
med = lambda v: statistics.median(float(x['time_us']) for x in v)
rows = []
for name in kind:
    for dt in ('fp16', 'bf16'):
        a, d = t[(name, dt, 'auto')], t[(name, dt, 'dp')]
        rows.append((med(d) / med(a), name, dt, kind[name],
                     '%s %sx%s' % (a[0]['plan_mode'], a[0]['tile_m'], a[0]['tile_n']) +
                     (' repacked ' + a[0]['repack'] if a[0]['repack'] else ''),
                     '%sx%s' % (d[0]['tile_m'], d[0]['tile_n'])))
print('# dp / auto by what auto runs (> 1: auto faster)')
for k in sorted(set(r[3] for r in rows)):
    for dt in ('fp16', 'bf16'):
        v = [r[0] for r in rows if r[3] == k and r[2] == dt]
        print('%-22s %s %3d shapes: geomean %.3f, min %.3f, max %.3f, %d under 0.97' % (
            k, dt, len(v), statistics.geometric_mean(v), min(v), max(v),
            sum(x < 0.97 for x in v)))
for dt in ('fp16', 'bf16'):
    v = [r[0] for r in rows if r[2] == dt]
    print('all                    %s %3d shapes: geomean %.3f, min %.3f, %d under 0.97' % (
        dt, len(v), statistics.geometric_mean(v), min(v), sum(x < 0.97 for x in v)))
print('\n# under 0.97: dp / auto, shape, dtype, kind, auto plan, dp tile')
for r in sorted(rows):
    if r[0] < 0.97:
        print('%.3f %-24s %s %-22s %-30s %s' % r)
