#!/usr/bin/env python3
"""Session 51: every tile Stream-K over fewer tiles than blocks (120 blocks or more) against
data-parallel on the same tile in one partial round, wherever both were timed in one pass (runs
since 2026-11-23): the model's predicted ratio dp / Stream-K and the measured one, per shape and
tile (bench M x N x K), sorted by the prediction. For CostModel::few_tiles_streamk_gain.

  python3 docs/results/2026-11-24-h200-clock/few_tiles.py > few_tiles.txt"""
import csv,glob,collections,math,re,subprocess,os,tarfile,tempfile
files=sorted(glob.glob('docs/results/2026-11-2[34]*/**/*.csv',recursive=True))
tmp=tempfile.mkdtemp()
for t in glob.glob('docs/results/2026-11-2[34]*/**/csv.tgz',recursive=True):
    d=os.path.join(tmp,t.replace('/','_'));os.makedirs(d)
    with tarfile.open(t) as tf: tf.extractall(d)
files+=glob.glob(tmp+'/**/*.csv',recursive=True)
res=collections.defaultdict(list)
for f in files:
    try: rows=list(csv.DictReader(open(f)))
    except Exception: continue
    if not rows or 'predicted_us' not in rows[0]: continue
    by=collections.defaultdict(dict)
    for r in rows:
        if r.get('status')=='ok' and r['mode']!='cublas' and r.get('predicted_us'):
            by[(r['m'],r['n'],r['k'],r['layout'],r['dtype'])][(r['plan_mode'],r['tile_m'],r['tile_n'],r['dp_tiles'],r['sk_tiles'],r['sk_blocks'],r['reduction'])]=r
    for k,plans in by.items():
        for p,r in plans.items():
            if p[0]=='streamk' and p[3]=='0' and int(p[4])<int(p[5]) and int(p[5])>=120:
                # dp on same tile
                for q,d in plans.items():
                    if q[0]=='dp' and q[1]==p[1] and q[2]==p[2] and int(q[3])<132:
                        pg=float(d['predicted_us'])/float(r['predicted_us']); mg=float(d['time_us'])/float(r['time_us'])
                        res[(k[0],k[1],k[2],p[1]+'x'+p[2],p[4])].append((pg,mg,os.path.basename(os.path.dirname(f)) if not f.startswith(tmp) else 'csv.tgz'))
for k in sorted(res, key=lambda x: res[x][0][0]):
    v=res[k]; mg=[x[1] for x in v]
    print(f"{k[0]}x{k[1]}x{k[2]:6s} {k[3]:8s} {k[4]:>4s} tiles  predicted {v[0][0]:.3f}  "
          f"measured {min(mg):.3f}-{max(mg):.3f} (n={len(v)})  {' '.join(sorted(set(x[2] for x in v)))}")
