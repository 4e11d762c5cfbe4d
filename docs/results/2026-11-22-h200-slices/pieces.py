import csv,sys,statistics as st
rows=list(csv.DictReader(open(sys.argv[1])))
for r in rows:
  for k in r: r[k]=float(r[k])
nsk=int(sys.argv[2]); sl=int(sys.argv[3])
sk=[r for r in rows if r['work']<nsk]; rd=[r for r in rows if r['work']>=nsk]
def s(lst,f):
  v=list(map(f,lst)); return "%.2f/%.2f/%.2f"%(min(v),st.median(v),max(v))
print("sk: begin",s(sk,lambda r:r['begin_us']),"ml end",s(sk,lambda r:r['mainloop_end_us']),"end",s(sk,lambda r:r['epilogue_end_us']))
bysm={}
for r in sk: bysm[r['block']]=r['epilogue_end_us']
print("gap sk end -> rd begin", s(rd,lambda r:r['begin_us']-bysm.get(r['block'],0)))
for q in range(sl):
  g=[r for r in rd if (r['work']-nsk)%sl==q]
  if not g: continue
  print("slice",q,len(g),"begin",s(g,lambda r:r['begin_us']),"map",s(g,lambda r:r['mainloop_end_us']-r['begin_us']),"wait",s(g,lambda r:r['wait_end_us']-r['mainloop_end_us']),
   "sum",s(g,lambda r:r['fixup_end_us']-r['wait_end_us']),"store",s(g,lambda r:r['epilogue_end_us']-r['fixup_end_us']),"end",s(g,lambda r:r['epilogue_end_us']))
