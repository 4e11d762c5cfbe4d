# The waveq ceiling: data-parallel's time over a perfectly balanced, overhead-free run of the same
# work at the fastest per-SM rate measured for that K in the same CSV (each K's best shape and
# mode: ours alone, then cuBLAS too). Usage: python3 waveq_ceiling.py bench-DTYPE.csv
# A unit is one 128 x 256 x 64 iteration; D is column-major, so a tile spans 256 of M.
import csv,collections,math,sys
rows=collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    if r['set']!='waveq' or r['status']!='ok': continue
    rows[(int(r['m']),int(r['n']),int(r['k']))][r['mode']]=float(r['time_us'])
def units(m,n,k): return math.ceil(m/256)*math.ceil(n/128)*k/64
g=lambda x: math.exp(sum(map(math.log,x))/len(x))
for label,use in [('ours',lambda mo: mo!='cublas'),('any incl. cuBLAS',lambda mo: True)]:
  rate=collections.defaultdict(lambda:1e9)
  for (m,n,k),v in rows.items():
    for mode,t in v.items():
      if use(mode): rate[k]=min(rate[k], t*132/units(m,n,k))
  c=[v['dp']/(units(m,n,k)*rate[k]/132) for (m,n,k),v in rows.items()]
  byk=collections.defaultdict(list)
  for (m,n,k),v in rows.items(): byk[k].append(v['dp']/(units(m,n,k)*rate[k]/132))
  print('%-18s rate us/iter %s ceiling geomean %.3f by K %s'%(label,{k:round(x,3) for k,x in sorted(rate.items())},g(c),{k:round(g(x),3) for k,x in sorted(byk.items())}))
a=[v['dp']/v['auto'] for v in rows.values()]
print('actual auto/dp %.3f'%g(a))
