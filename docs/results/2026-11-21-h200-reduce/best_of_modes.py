#!/usr/bin/env python3
# python3 best_of_modes.py DIR PREFIX: over DIR/PREFIX*.csv, per shape, dp / auto and dp / (the
# fastest mode measured), each a median over the files, and their geometric means.
import csv,sys,statistics,collections,math,glob
t=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(sys.argv[1]+'/'+sys.argv[2]+'*.csv')):
    for r in csv.DictReader(open(f)):
        if r['status']!='ok': continue
        t[(r['name'],r['m'],r['n'],r['k'])][r['mode']].append(float(r['time_us']))
ra=[];rb=[]
for k,v in t.items():
    med={m:statistics.median(x) for m,x in v.items()}
    best=min(med.values()); bm=min(med,key=med.get)
    ra.append(med['dp']/med['auto']); rb.append(med['dp']/best)
    print('%-10s %-20s auto/dp %.3f best %.3f (%s)'%(k[0],'%sx%sx%s'%k[1:],med['dp']/med['auto'],med['dp']/best,bm))
g=lambda r: math.exp(sum(map(math.log,r))/len(r))
print('geomean auto %.3f best %.3f'%(g(ra),g(rb)))
