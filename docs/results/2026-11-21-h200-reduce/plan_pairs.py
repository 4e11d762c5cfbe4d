#!/usr/bin/env python3
# python3 plan_pairs.py bench-fp16.csv ...: for each streamk-bench CSV, the shapes where auto's
# plan differs from dp's (mode, tiles, blocks, reduction, tile width) with their worst and median
# time(dp) / time(auto), and the same-plan pairs that read below 0.97 (noise between two runs of
# one plan).
import collections, csv, sys

for path in sys.argv[1:]:
    t = collections.defaultdict(dict)
    for r in csv.DictReader(open(path)):
        t[(r['set'], r['name'], r['m'], r['n'], r['k'])][r['mode']] = r
    diff, same_low = [], []
    for k, v in t.items():
        a, d = v['auto'], v['dp']
        if a['status'] != 'ok' or d['status'] != 'ok':
            print('not ok:', k)
            continue
        ratio = float(d['time_us']) / float(a['time_us'])
        fields = ('plan_mode', 'dp_tiles', 'sk_tiles', 'sk_blocks', 'reduction', 'tile_n')
        shape = '%s %sx%sx%s' % (k[1] or k[0], k[2], k[3], k[4])
        if tuple(a[f] for f in fields) != tuple(d[f] for f in fields):
            diff.append((ratio, shape))
        elif ratio < 0.97:
            same_low.append((ratio, shape))
    diff.sort()
    print('%s: %d of %d shapes with a plan other than dp\'s; worst %s; median %.3f' %
          (path, len(diff), len(t), ', '.join('%.3f %s' % x for x in diff[:3]),
           diff[len(diff) // 2][0]))
    print('  same-plan pairs below 0.97: ' + (', '.join('%.3f %s' % x for x in sorted(same_low)) or 'none'))
