# Run 70: three builds timed alternately (all-{old,mid,new}-{1,2}.csv): per set and mode, the
# geomean over shapes of time(X) / time(new) (each the geomean of its two passes), the shapes
# furthest each way, and each build's pass against its other pass (the noise).
# Usage: python3 ab3.py (run from the unpacked archive).
import csv,collections,math
g=lambda x: math.exp(sum(map(math.log,x))/len(x))
d=collections.defaultdict(dict)
for b in ['old','mid','new']:
  for p in '12':
    for r in csv.DictReader(open(f'all-{b}-{p}.csv')):
      if r['status']=='ok':
        d[(r['set'],r['name'] or 'x'.join([r['m'],r['n'],r['k']]),r['mode'])][b+p]=float(r['time_us'])
t=lambda v,b: g([v[b+'1'],v[b+'2']])
for base in ['old','mid']:
  rat=collections.defaultdict(list)
  for (st,n,m),v in d.items(): rat[(st,m)].append((t(v,base)/t(v,'new'),n))
  print(f'time({base}) / time(new): > 1, new faster')
  for k,x in sorted(rat.items()):
    x.sort()
    print('  %-6s %-7s %.3f  min %.3f %s  max %.3f %s'%(k[0],k[1],g([y[0] for y in x]),x[0][0],x[0][1],x[-1][0],x[-1][1]))
nz=collections.defaultdict(list)
for (st,n,m),v in d.items():
  for b in ['old','mid','new']: nz[(st,m,b)].append(v[b+'1']/v[b+'2'])
print('noise: pass 1 / pass 2')
for k,x in sorted(nz.items()): print('  %-6s %-7s %-4s %.3f'%(k[0],k[1],k[2],g(x)))
