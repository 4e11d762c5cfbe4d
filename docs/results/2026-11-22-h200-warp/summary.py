# Session 35's A/B of who issues the rows' bulk copies (runs 191 and 192, three rounds each,
# alternating STREAMK_ROW_COPIES=compute, =warp and, in run 191, the launch's pick): the mean over
# rounds of streamk-trace's untraced time (median of 9 x 5 launches) and of streamk-bench's
# median. Run from this folder: python3 summary.py
import csv, re, statistics
def traces(path):
    out, key = {}, None
    for line in open(path):
        m = re.match(r'=== (\w+) (\d) (.*)', line)
        if m: key = (m.group(1), m.group(3).strip()); continue
        m = re.match(r'untraced: ([\d.]+) us', line)
        if m and key: out.setdefault(key, []).append(float(m.group(1)))
    return out
def bench(pattern, copies):
    out = {}
    for r in (1, 2, 3):
        try: rows = list(csv.DictReader(open(pattern.format(copies=copies, r=r))))
        except FileNotFoundError: continue
        for x in rows:
            if x['mode'] == 'auto' and x['status'] == 'ok':
                out.setdefault('%sx%sx%s' % (x['m'], x['n'], x['k']), []).append(float(x['time_us']))
    return out
for run, modes in (('run191', ('compute', 'warp', 'pick')), ('run192', ('compute', 'warp'))):
    t = traces(run + '/traces.txt')
    print('%s streamk-trace M N K [--ldd]: untraced us, mean of 3 rounds (each round)' % run)
    for shape in dict.fromkeys(k[1] for k in t):
        cells = ['%s %6.1f (%s)' % (c, statistics.mean(t[(c, shape)]),
                                    ' '.join('%.1f' % v for v in t[(c, shape)]))
                 for c in modes if (c, shape) in t]
        base = statistics.mean(t[('compute', shape)])
        print('  %-28s %s  warp/compute %.3f' % (shape, '  '.join(cells),
              statistics.mean(t[('warp', shape)]) / base))
    for kind in ('packed', 'padded'):
        b = {c: bench(run + '/' + kind + '-{copies}-{r}.csv', c) for c in modes}
        if not b['compute']: continue
        print('%s streamk-bench %s (bench M x N x K): median us, mean of 3 rounds (each round)' %
              (run, kind))
        for shape in b['compute']:
            cells = ['%s %6.1f (%s)' % (c, statistics.mean(b[c][shape]),
                                        ' '.join('%.1f' % v for v in b[c][shape])) for c in modes]
            print('  %-16s %s  warp/compute %.3f' % (shape, '  '.join(cells),
                  statistics.mean(b['warp'][shape]) / statistics.mean(b['compute'][shape])))
