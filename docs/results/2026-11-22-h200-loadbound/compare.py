# Session 19: run 93 against run 88 per set and row alignment (times of the same modes on two
# machines), the cluster picks, and the 3% rule where auto and dp differ, with
# the two runs' csv.tgz unpacked into the directories given: python3 compare.py RUN88_DIR RUN93_DIR
import csv, math, sys, collections
def load(path):
    d = collections.defaultdict(dict)
    for r in csv.DictReader(open(path)):
        key = (r['set'], r['name'], r['m'], r['n'], r['k'])
        d[key][r['mode']] = r
    return d
def gm(xs): return math.exp(sum(math.log(x) for x in xs)/len(xs)) if xs else float('nan')
for dt in ('fp16','bf16'):
    a = load(f'{sys.argv[1]}/bench-{dt}.csv'); b = load(f'{sys.argv[2]}/bench-{dt}.csv')
    print('==', dt)
    for st in ('paper','waveq','llm'):
        keys=[k for k in b if k[0]==st]
        for kind in ('aligned','misaligned'):
            ks=[k for k in keys if (int(k[4])%16==0)==(kind=='aligned')]
            if not ks: continue
            r_auto=[float(b[k]['auto']['time_us'])/float(a[k]['auto']['time_us']) for k in ks]
            r_cub=[float(b[k]['cublas']['time_us'])/float(a[k]['cublas']['time_us']) for k in ks]
            r_dp=[float(b[k]['dp']['time_us'])/float(a[k]['dp']['time_us']) for k in ks]
            acb=[float(b[k]['cublas']['time_us'])/float(b[k]['auto']['time_us']) for k in ks]
            acb82=[float(a[k]['cublas']['time_us'])/float(a[k]['auto']['time_us']) for k in ks]
            adp=[float(b[k]['dp']['time_us'])/float(b[k]['auto']['time_us']) for k in ks]
            ncl=sum(1 for k in ks if b[k]['auto']['tile_m']=='256')
            print(f"{st:6s} {kind:10s} n={len(ks):3d} t93/t88 auto {gm(r_auto):.3f} dp {gm(r_dp):.3f} cublas {gm(r_cub):.3f} | auto/cublas 93 {gm(acb):.3f} 88 {gm(acb82):.3f} | auto/dp {gm(adp):.3f} clusters {ncl}")
    # cluster picks detail
    print('cluster picks:')
    for k in b:
        if b[k]['auto']['tile_m']=='256':
            au=float(b[k]['auto']['time_us']); dp=float(b[k]['dp']['time_us']); cb=float(b[k]['cublas']['time_us'])
            print(f"  {k[0]} {k[2]}x{k[3]}x{k[4]} auto {au:.1f} dp {dp:.1f} ({dp/au:.3f}) cublas {cb:.1f} ({cb/au:.3f}) plan {b[k]['auto']['plan_mode']} sk{b[k]['auto']['sk_blocks']} r88auto {float(a[k]['auto']['time_us']):.1f}")
    # worst differing plans
    diff=[]
    for k in b:
        x=b[k]['auto']; y=b[k]['dp']
        same = all(x[f]==y[f] for f in ('plan_mode','dp_tiles','sk_tiles','sk_blocks','reduction','tile_m','tile_n','repack'))
        if not same: diff.append((float(y['time_us'])/float(x['time_us']), k))
    diff.sort()
    print('differing plans', len(diff), 'worst', [(round(r,3), k[1] or f"{k[2]}x{k[3]}x{k[4]}") for r,k in diff[:4]], 'median', round(sorted(r for r,_ in diff)[len(diff)//2],3))
    same=[]
    for k in b:
        x=b[k]['auto']; y=b[k]['dp']
        if all(x[f]==y[f] for f in ('plan_mode','dp_tiles','sk_tiles','sk_blocks','reduction','tile_m','tile_n','repack')):
            same.append((float(y['time_us'])/float(x['time_us']), k))
    same.sort()
    print('same-plan below 0.97:', [(round(r,3), f"{k[2]}x{k[3]}x{k[4]}") for r,k in same if r<0.97])
