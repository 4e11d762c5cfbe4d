#!/usr/bin/env python3
"""Session 55, run 295: the shapes of moved3.txt whose old pick ran on 2-SM clusters, each with
the estimate ratio clusters / data-parallel's pick (OLD_PLAN's auto, NEW_PLAN with --mode dp) and the
measured one (the clusters' mode forced / auto, which ran data-parallel's pick; median of three
passes), sorted by the estimate; then, per margin, the shapes it would move and their measured
geomean and minimum (kMinDpOverClustersGain).
  python3 clusters_margin.py OLD_PLAN NEW_PLAN > clusters_margin.txt"""
import csv, json, os, subprocess, statistics, sys
d=os.path.dirname(os.path.abspath(__file__))+'/'
old={}
for l in open(d+'moved3.txt'):
    if l.startswith('# old ') and 'repacked' not in l:
        f=l.split(); old[f[2]]=f[3]
t={}
for p in ['tn-fp16-1','tn-fp16-2','tn-bf16-1']:
    for r in csv.DictReader(open(d+'run295/'+p+'.csv')):
        if r['status']=='ok': t.setdefault((r['name'],r['mode']),[]).append(float(r['time_us']))
def pj(b,m,n,k,*x):
    return json.loads(subprocess.run([b,str(m),str(n),str(k),'--json','--device','h200',*x],capture_output=True,text=True).stdout)
rows=[]
for n,m in old.items():
    if not m.endswith('256x256x64'): continue
    w,tk,k=(int(x[1:]) for x in n.split('.')[1:])
    a=pj(sys.argv[1],tk,w,k); b=pj(sys.argv[2],tk,w,k,'--mode','dp')
    meas=statistics.median(t[(n,m)])/statistics.median(t[(n,'auto')])
    pred=a['predicted_us']/b['predicted_us']
    tiles=b['dp_tiles']; slots=132
    rows.append((pred,meas,n,m,f"{b['mode']} {b['tile'][0]}x{b['tile'][1]}",round(tiles/slots,2),k//64))
rows.sort()
print('# est  meas  shape                    clusters' + ' ' * 13 + 'dp pick      rounds k-its')
for r in rows: print('%.3f %.3f %-24s %-20s %-12s rounds=%s its=%d'%r)
for margin in (0.0, 0.02, 0.05, 0.08, 0.10):
    sel=[r[1] for r in rows if 1 / r[0] < 1 - margin]
    print('margin %.2f: %2d shapes move, measured geomean %.3f, min %.3f, %d of them under 0.97' % (
        margin, len(sel), statistics.geometric_mean(sel), min(sel), sum(x < 0.97 for x in sel)))
