#!/usr/bin/env python3
"""Run 221's (with --with-222 also run 222's) ping-pong rows on the 128 x 256 model's scale, for
streamk-fit --model alt: python3 scale.py STREAMK_PLAN [--with-222] > scaled.csv. Each data-parallel 128 x 128 row's time is multiplied
by the 128 x 256 model's prediction over the median measured 128 x 256 time of the same shape and
dtype, so a fit of the 128 x 128 model to these rows fits the ratio of the two tiles' times, which
is what the planner compares."""
import collections, csv, glob, json, os, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
plan = sys.argv[1]
rows, wide = [], collections.defaultdict(list)
files = glob.glob(os.path.join(HERE, 'run221', 'grid-*.csv'))
if '--with-222' in sys.argv:
    files += glob.glob(os.path.join(HERE, 'run222', 'check-*.csv'))
for f in sorted(files):
    for r in csv.DictReader(open(f)):
        if r['status'] != 'ok':
            continue
        key = (r['dtype'], r['m'], r['n'], r['k'])
        if r['mode'] == 'dp/128x256x64':
            wide[key].append(float(r['time_us']))
        elif r['mode'] == 'dp/128x128x64':
            rows.append(r)
predicted = {}
writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0].keys()), lineterminator='\n')
writer.writeheader()
for r in rows:
    key = (r['dtype'], r['m'], r['n'], r['k'])
    if key not in predicted:
        # The bench's tn layout plans the kernel problem N x M.
        out = subprocess.run([plan, r['n'], r['m'], r['k'], '--tile', '128x256x64', '--mode', 'dp',
                              '--dtype', r['dtype'], '--json'], capture_output=True, text=True,
                             check=True)
        predicted[key] = json.loads(out.stdout)['predicted_us']
    r = dict(r)
    r['time_us'] = '%.3f' % (float(r['time_us']) * predicted[key] / statistics.median(wide[key]))
    writer.writerow(r)
