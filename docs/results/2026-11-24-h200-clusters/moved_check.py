#!/usr/bin/env python3
"""Session 56, run 299: every pick that moves (moved_all.txt), its new pick (auto) against its old
one (OLD_PLAN's auto pick: one of the clusters' modes, forced in the same passes; checked to be
the very plan by its tiles and blocks) and against dp; medians of run299's passes per dtype.
The first look: 22 of the forced modes ran another plan than the old pick (Stream-K hybrids and
split counts), which run 300 timed exactly; final_check.py has the final build's moves.

  python3 moved_check.py OLD_PLAN > moved_check.txt   # OLD_PLAN: streamk-plan of 2e1ca87"""
import csv, json, os, statistics, subprocess, sys
here = os.path.dirname(os.path.abspath(__file__))
t = {}
for p in ('tn-fp16-1', 'tn-fp16-2', 'tn-bf16-1'):
    for r in csv.DictReader(open(os.path.join(here, 'run299', p + '.csv'))):
        if r['status'] == 'ok':
            t.setdefault((r['name'], r['dtype'], r['mode']), []).append(r)
med = lambda v: statistics.median(float(x['time_us']) for x in v)
rows, mismatch = [], 0
for l in open(os.path.join(here, 'moved_all.txt')):
    name, w, tk, k = l.split()
    old = json.loads(subprocess.run([sys.argv[1], tk, w, k, '--json', '--device', 'h200'],
                                    capture_output=True, text=True).stdout)
    mode = '%s/%dx%dx%d' % (old['mode'], *old['tile'])
    for dt in ('fp16', 'bf16'):
        o, a, d = t[(name, dt, mode)], t[(name, dt, 'auto')], t[(name, dt, 'dp')]
        if (int(o[0]['dp_tiles']), int(o[0]['sk_tiles']), int(o[0]['sk_blocks'])) != (
                old['dp_tiles'], old['sk_tiles'], old['sk_blocks']):
            mismatch += 1
        new = '%s %sx%s' % (a[0]['plan_mode'], a[0]['tile_m'], a[0]['tile_n'])
        rows.append((med(o) / med(a), med(d) / med(a), name, dt, mode, new))
rows.sort()
print('# old/new  dp/new  shape  dtype  old pick (forced)  new pick')
for r in rows:
    print('%.3f %.3f %-26s %s %-20s %s' % r)
for dt in ('fp16', 'bf16'):
    v = [r for r in rows if r[3] == dt]
    print('%s: %d shapes; new pick against the old: geomean %.3f, min %.3f, max %.3f, %d slower '
          'by 3%% or more; against dp: geomean %.3f, min %.3f' % (
              dt, len(v), statistics.geometric_mean([r[0] for r in v]), min(r[0] for r in v),
              max(r[0] for r in v), sum(r[0] < 0.97 for r in v),
              statistics.geometric_mean([r[1] for r in v]), min(r[1] for r in v)))
print('old picks whose forced mode ran another plan: %d' % mismatch)
