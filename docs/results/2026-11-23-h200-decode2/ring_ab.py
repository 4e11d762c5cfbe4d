#!/usr/bin/env python3
"""Session 43, run 239: packed rings (STREAMK_RING=packed, the patch) against whole-tile stages
(STREAMK_RING=whole) on the decode rows, auto and cuBLAS, medians of three passes.
    python3 ring_ab.py run239 > ring-ab.txt
"""
import csv,statistics,sys,math
from collections import defaultdict
d=sys.argv[1]
t=defaultdict(list)
for ring in ['packed','whole']:
  for layout in ['tn','nn']:
    for p in [1,2,3]:
      for r in csv.DictReader(open(f'{d}/ring-{ring}-{layout}-{p}.csv')):
        if r['status']!='ok': print('NOT OK',r); continue
        t[(layout,r['name'],r['m'],r['n'],r['k']),r['mode'],ring].append(float(r['time_us']))
keys=sorted({k for k,_,_ in t}, key=lambda k:(k[0],k[1]))
print('%-3s %-16s %-16s %8s %8s %8s %8s %7s %7s %7s'%('lay','name','shape','packed','whole','cub(p)','cub(w)','w/p','cub/p','cub/w'))
g=defaultdict(list)
for k in keys:
  P=statistics.median(t[k,'auto','packed']);W=statistics.median(t[k,'auto','whole'])
  CP=statistics.median(t[k,'cublas','packed']);CW=statistics.median(t[k,'cublas','whole'])
  print('%-3s %-16s %-16s %8.1f %8.1f %8.1f %8.1f %7.3f %7.3f %7.3f'%(k[0],k[1],'x'.join(k[2:]),P,W,CP,CW,W/P,CP/P,CW/W))
  g[k[0]].append((W/P,CP/P,CW/W))
for l,v in g.items():
  gm=lambda i: math.exp(sum(math.log(x[i]) for x in v)/len(v))
  print(l,'geomean whole/packed %.3f  cublas/packed %.3f  cublas/whole %.3f'%(gm(0),gm(1),gm(2)))
