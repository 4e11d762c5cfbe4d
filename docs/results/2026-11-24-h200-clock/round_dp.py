import subprocess,glob,re,math,collections,sys,os,tarfile,tempfile
fit=sys.argv[1]; exps=[float(x) for x in sys.argv[2].split(',')]
files=sorted(glob.glob('docs/results/2026-11-2[34]*/**/*.csv',recursive=True))
tmp=tempfile.mkdtemp()
for t in glob.glob('docs/results/2026-11-2[34]*/**/csv.tgz',recursive=True):
    d=os.path.join(tmp,t.replace('/','_'));os.makedirs(d)
    with tarfile.open(t) as tf: tf.extractall(d)
files+=glob.glob(tmp+'/**/*.csv',recursive=True)
def rows(f,e):
    r=subprocess.run([fit,'--rows','--set',f'main.streamk_round_exponent={e}',f],capture_output=True,text=True)
    out=[]
    for l in r.stdout.splitlines():
        m=re.match(r'^(\S+)\s+(\S+)\s+(\d+x\d+x\d+)\s+(.*?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$',l)
        if m: out.append((m.group(1),m.group(2),m.group(3),m.group(4).strip(),float(m.group(5)),float(m.group(6))))
    return out
cache={}
for e in exps:
    res=collections.defaultdict(list)
    for f in files:
        r=rows(f,e)
        by=collections.defaultdict(lambda: collections.defaultdict(list))
        for x in r:
            by[(x[0],x[1],x[2],f)][x[3]].append((x[4],x[5]))
        for k,plans in by.items():
            if 'dp 128x256' not in plans: continue
            dm=sum(a for a,_ in plans['dp 128x256'])/len(plans['dp 128x256']); dpred=plans['dp 128x256'][0][1]
            for pl,v in plans.items():
                m=re.match(r'streamk 128x256 dp(\d+)\+sk(\d+)/(\d+)',pl)
                if not m: continue
                kind='all' if m.group(1)=='0' else ('tail' if int(m.group(2))<132 else 'two')
                mm=sum(a for a,_ in v)/len(v); pp=v[0][1]
                res[kind].append((math.log(dm/mm), math.log(dpred/pp), k[2], pl))
    for kind,v in sorted(res.items()):
        err=[a-b for a,b,_,_ in v]
        # decisions: predicted gain >2.5% but measured loss >3%, or predicted loss but measured gain>3%
        bad=sum(1 for a,b,_,_ in v if b>0.025 and a<-0.03)
        missed=sum(1 for a,b,_,_ in v if b<0.025 and a>0.05)
        print(f'p={e} {kind:4s} n={len(v)} mean(meas-pred gain) {sum(err)/len(err):+.4f} rms {math.sqrt(sum(x*x for x in err)/len(err)):.4f} taken-but-lost {bad} missed>5% {missed}')
