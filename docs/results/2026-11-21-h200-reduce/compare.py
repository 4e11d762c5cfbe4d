#!/usr/bin/env python3
# A/B of streamk-bench CSVs: python3 compare.py DIR reads DIR/new*.csv and DIR/old*.csv (the
# alternating calls of one run) and prints, per shape and mode, the median new / old time (us) and
# old / new (> 1: the new build is faster), then the geometric mean of old / new per mode.
import csv,sys,statistics,collections,math
d=sys.argv[1]
import glob
t=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(d+'/*.csv')):
    b=''.join(c for c in f.split('/')[-1].split('.')[0] if c.isalpha())
    for r in csv.DictReader(open(f)):
        if r['status']!='ok': continue
        key=(r['name'],'%sx%sx%s'%(r['m'],r['n'],r['k']))
        t[b][(key,r['mode'])].append(float(r['time_us']))
modes=[]
for (k,m) in t['new']:
    if m not in modes: modes.append(m)
keys=[]
for (k,m) in t['new']:
    if k not in keys: keys.append(k)
print('%-28s'%'shape'+''.join('%22s'%m[:22] for m in modes))
ratios=collections.defaultdict(list)
for k in keys:
    line='%-28s'%(k[0]+' '+k[1])
    for m in modes:
        n=statistics.median(t['new'].get((k,m),[float('nan')])); o=statistics.median(t['old'].get((k,m),[float('nan')]))
        line+='%10.1f/%-6.1f%5.2f'%(n,o,o/n)
        ratios[m].append(o/n)
    print(line)
print('geomean old/new: '+'  '.join('%s %.3f'%(m,math.exp(sum(map(math.log,r))/len(r))) for m,r in ratios.items()))
