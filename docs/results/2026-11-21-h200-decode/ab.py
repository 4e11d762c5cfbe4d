# A/B of run 65 (run from a folder holding its CSVs, e.g. run65/all.tgz unpacked): per set and
# mode, the geometric mean over shapes of time(first build) / time(second build), both passes
# pooled; pass against pass of one build gives the noise.
import csv,collections,math,sys
def load(f):
  d={}
  for r in csv.DictReader(open(f)):
    if r['status']=='ok': d[(r['set'],r['name'],r['m'],r['n'],r['k'],r['mode'])]=(float(r['time_us']),r['tile_n'])
  return d
g=lambda x: math.exp(sum(map(math.log,x))/len(x))
def cmp(a,b,label,only128=False):
  A=[load(f) for f in a]; B=[load(f) for f in b]
  out=collections.defaultdict(list)
  for key in A[0]:
    if not all(key in x for x in A+B): continue
    if only128 and A[0][key][1]!='128': continue
    ta=g([x[key][0] for x in A]); tb=g([x[key][0] for x in B])
    out[(key[0],key[5])].append((ta/tb,key))
  print(label)
  for (s,m),v in sorted(out.items()):
    r=[x[0] for x in v]
    lo=min(v);hi=max(v)
    print('  %-6s %-8s n=%3d geomean %.3f  min %.3f %s  max %.3f %s'%(s,m,len(r),g(r),lo[0],'x'.join(lo[1][2:5]),hi[0],'x'.join(hi[1][2:5])))
cmp(['s4-fp16-1.csv','s4-fp16-2.csv'],['s5-fp16-1.csv','s5-fp16-2.csv'],'fp16 s4/s5 (>1: 5 stages faster)')
cmp(['s4-fp16-1.csv'],['s4-fp16-2.csv'],'noise: s4 pass1/pass2')
cmp(['s5-fp16-1.csv'],['s5-fp16-2.csv'],'noise: s5 pass1/pass2')
cmp(['s4-bf16.csv'],['s5-bf16.csv'],'bf16 s4/s5')
cmp(['s4-fp16-1.csv','s4-fp16-2.csv'],['s5-fp16-1.csv','s5-fp16-2.csv'],'fp16 s4/s5, rows on the 128x128 tile',True)
