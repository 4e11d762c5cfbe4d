# Per-shape times of three work-order builds from run 27 CSVs (passes old1/2, dpf1/2, mid1/2):
#   python3 compare_orders.py waveq|llm DIR_WITH_csv/ [modes,comma,separated]
# Cells: old / dpf / mid (mean of the two passes), then geomeans of old/new per mode.
import csv,sys,collections,math
pre=sys.argv[1]; d=sys.argv[2]
def load(f):
    m={}
    for r in csv.DictReader(open(f)):
        m[(r['name'],r['m'],r['n'],r['k'],r['mode'])]=float(r['time_us']) if r['status']=='ok' else float('nan')
    return m
V={v:[load(f'{d}/csv/{pre}-{v}{i}.csv') for i in (1,2)] for v in ('old','dpf','mid')}
keys=list(V['old'][0].keys())
modes=[]; shapes=[]
for k in keys:
    if k[4] not in modes: modes.append(k[4])
    if k[:4] not in shapes: shapes.append(k[:4])
avg=lambda v,k: (V[v][0][k]+V[v][1][k])/2
sel=sys.argv[3].split(',') if len(sys.argv)>3 else modes
print('shape'.ljust(24),' '.join(m[:20].rjust(20) for m in sel))
lr=collections.defaultdict(lambda: collections.defaultdict(list))
for s in shapes:
    cells=[]
    for m in sel:
        o,a,b=[avg(v,s+(m,)) for v in ('old','dpf','mid')]
        cells.append(f'{o:6.1f}/{a:6.1f}/{b:6.1f}'.rjust(20))
        for v,x in (('dpf',a),('mid',b)):
            if o==o and x==x: lr[m][v].append(math.log(o/x))
    print((s[0]+' '+s[3]).ljust(24),' '.join(cells))
for m in sel: print(m, {v:round(math.exp(sum(l)/len(l)),3) for v,l in lr[m].items()})
# auto/dp per variant
for v in ('old','dpf','mid'):
    r=[math.log(avg(v,s+('dp',))/avg(v,s+('auto',))) for s in shapes]
    print(v,'auto/dp geomean %.3f min %.3f'%(math.exp(sum(r)/len(r)), math.exp(min(r))))
# hybrid: mid for one-wave shapes, dpf otherwise
r=[];rows=[]
for s in shapes:
    v='mid' if s[0].startswith(('133','136','144')) else 'dpf'
    r.append(math.log(avg(v,s+('dp',))/avg(v,s+('auto',))))
print('hyb auto/dp geomean %.3f min %.3f'%(math.exp(sum(r)/len(r)), math.exp(min(r))))
# with common dp (mean over all 6 passes) to reduce noise
for v in ('old','dpf','mid'):
    r=[math.log(sum(avg(w,s+('dp',)) for w in ('old','dpf','mid'))/3/avg(v,s+('auto',))) for s in shapes]
    print(v,'auto vs pooled dp geomean %.3f min %.3f'%(math.exp(sum(r)/len(r)), math.exp(min(r))))
