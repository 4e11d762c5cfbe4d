# Per-shape A/B of two builds timed alternately in one call (run 68: PREFIX-old-1/2.csv and
# PREFIX-new-1/2.csv): time(old) / time(new) per shape and mode, each the geomean of two passes,
# then the geomean per mode. Usage: python3 ab_shapes.py PREFIX (run from the unpacked archive).
import csv,collections,math,sys
g=lambda x: math.exp(sum(map(math.log,x))/len(x))
kind=sys.argv[1]
d=collections.defaultdict(dict)
for b in ['old','new']:
  for p in '12':
    for r in csv.DictReader(open(f'{kind}-{b}-{p}.csv')):
      if r['status']=='ok': d[(r['name'],r['mode'])][b+p]=(float(r['time_us']),r['plan_mode']+'/'+r['tile_n'])
rat=collections.defaultdict(list)
for (n,m),v in d.items():
  o=g([v['old1'][0],v['old2'][0]]); nw=g([v['new1'][0],v['new2'][0]])
  rat[m].append(o/nw)
  print('%-16s %-8s old %7.1f new %7.1f  %.3f  %s'%(n,m,o,nw,o/nw,v['new1'][1]))
for m,x in rat.items(): print('geomean old/new %-8s %.3f  min %.3f max %.3f'%(m,g(x),min(x),max(x)))
