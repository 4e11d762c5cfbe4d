import subprocess,glob,re,math,collections,sys,os,tarfile,tempfile
fit=sys.argv[1]; exps=[float(x) for x in sys.argv[2].split(',')]
files=sorted(glob.glob('docs/results/2026-11-2[34]*/**/*.csv',recursive=True))
tmp=tempfile.mkdtemp()
for t in glob.glob('docs/results/2026-11-2[34]*/**/csv.tgz',recursive=True):
    d=os.path.join(tmp,t.replace('/','_'));os.makedirs(d)
    with tarfile.open(t) as tf: tf.extractall(d)
files+=glob.glob(tmp+'/**/*.csv',recursive=True)
extra=sys.argv[3] if len(sys.argv)>3 else ''
def rows(f,e):
    a=[fit,'--rows','--set',f'main.streamk_round_exponent={e}'+(','+extra if extra else ''),f]
    r=subprocess.run(a,capture_output=True,text=True)
    out=[]
    for l in r.stdout.splitlines():
        m=re.match(r'^(\S+)\s+(\S+)\s+(\d+x\d+x\d+)\s+(.*?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$',l)
        if m: out.append((m.group(1),m.group(2),m.group(3),m.group(4).strip(),float(m.group(5)),float(m.group(6))))
    return out
for e in exps:
    pairs=[]
    for f in files:
        r=rows(f,e)
        by=collections.defaultdict(dict)
        for x in r:
            m=re.match(r'streamk 128x256 dp(\d+)\+sk(\d+)/(\d+)( sep| atomic)?$',x[3])
            if not m or int(m.group(1))==0: continue
            kind='tail' if int(m.group(2))<132 else 'two'
            by[(x[0],x[1],x[2],f)].setdefault(kind,[]).append((x[4],x[5],x[3]))
        for k,v in by.items():
            if 'tail' in v and 'two' in v:
                for t in v['tail']:
                    for w in v['two']:
                        pairs.append((k[2],math.log(w[0]/t[0]),math.log(w[1]/t[1]),t[2],w[2]))
    err=[p[1]-p[2] for p in pairs]
    wrong=sum(1 for p in pairs if (p[1]>0.01 and p[2]<0) or (p[1]<-0.01 and p[2]>0))
    print(f'p={e}: pairs {len(pairs)} mean err {sum(err)/len(err):+.4f} rms {math.sqrt(sum(x*x for x in err)/len(err)):.4f} wrong-sign(>1%) {wrong}')
    if e==exps[0] or '-v' in sys.argv:
        seen=set()
        for p in sorted(pairs):
            if (p[0],p[3],p[4]) in seen: continue
            seen.add((p[0],p[3],p[4]))
            ms=[q[1] for q in pairs if q[0]==p[0] and q[3]==p[3] and q[4]==p[4]]
            print(f'   {p[0]:18s} meas two/tail {math.exp(sum(ms)/len(ms)):.3f} (n={len(ms)}) pred {math.exp(p[2]):.3f}  {p[3]} | {p[4]}')
