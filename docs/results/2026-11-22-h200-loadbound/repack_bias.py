# Session 19, run 95: auto's choice among the rows as they are, repacked and on clusters, replayed
# on run95/estimates.txt with the repack estimate's aligned prediction scaled by fr (1.0: the
# planner's rule). Usage: python3 repack_bias.py run95/estimates.txt
import math, sys
rows=[]
for l in open(sys.argv[1]):
    if l.startswith('#'): continue
    f=l.split(); v=list(map(float,f[2:]))
    rows.append((f[0],f[1],*v))
def lb(c,f,p=8):
    hi=max(c,f); lo=min(c,f)
    return hi*(1+(lo/hi)**p)**(1/p) if hi>0 else 0
def decide(r, fr=1.0, fc=1.0, fa=1.0):
    seed,shape,pred,floor,m_asis,rpred,copies,m_rep,cpred,cfloor,m_cl,m_auto=r
    best=lb(fa*pred,floor); choice='asis'
    rep=fr*rpred+copies
    if rep<best*0.97: best=rep; choice='rep'
    cl=lb(fc*cpred,cfloor)
    if cl<best*0.97: best=cl; choice='cl'
    return choice
def meas(r,c): return {'asis':r[4],'rep':r[7],'cl':r[10]}[c]
for fr in (1.0,0.95,0.92,0.9,0.88,0.85):
  for fa in (1.0,):
    out=[];lose=[];ch={'asis':0,'rep':0,'cl':0}
    for r in rows:
        c0=decide(r); c=decide(r,fr,1.0,fa); ch[c]+=1
        best=min(r[4],r[7],r[10])
        out.append(meas(r,c)/best)
        if meas(r,c)>meas(r,c0)*1.02: lose.append((r[1],c0,c,round(meas(r,c)/meas(r,c0),3)))
    gm=math.exp(sum(map(math.log,out))/len(out))
    print(f"fr {fr} fa {fa}: chosen/best {gm:.4f} picks {ch} worse-than-current {lose}")
# the current rule's misses that matter
print('current rule: shapes >5% off the best option')
for r in rows:
    c=decide(r); best=min(r[4],r[7],r[10]); bo=['asis','rep','cl'][[r[4],r[7],r[10]].index(best)]
    if meas(r,c)>1.05*best: print(' ',r[0],r[1],c,'->',bo, round(meas(r,c)/best,3), 'asis %.1f rep %.1f cl %.1f'%(r[4],r[7],r[10]))
