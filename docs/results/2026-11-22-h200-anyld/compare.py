# Auto on the unaligned shapes packed, runs 176-178, against the same shapes padded and cuBLAS (run 178).
import csv, math, collections, sys
runs={'176':'run176','177':'run177','178':'run178'}  # run from this folder
def load(d,dt,pack):
    out={}
    for r in csv.DictReader(open(f'{d}/{pack}-{dt}.csv')):
        if r['status']!='ok': print('BAD',d,pack,r['name'],r['mode'],r['status']); continue
        out[(r['name'],r['mode'])]=(float(r['time_us']),r)
    return out
g=lambda l: math.exp(sum(map(math.log,l))/len(l))
for dt in ['fp16','bf16']:
    P={k:load(v,dt,'packed') for k,v in runs.items()}
    Q=load(runs['178'],dt,'padded')
    names=[n for (n,m) in P['178'] if m=='auto']
    print(dt)
    print('%-18s %8s %8s %8s %8s %7s %8s %7s %7s  %s'%('shape','176','177','178','padded','pk/pd','cublas','cub/au','au/dp','plan'))
    L=collections.defaultdict(list)
    for n in names:
        a=[P[k][(n,'auto')][0] for k in ['176','177','178']]
        pd=Q[(n,'auto')][0]; cb=P['178'][(n,'cublas')][0]; dp=P['178'][(n,'dp')][0]
        r=P['178'][(n,'auto')][1]
        L['pkpd'].append(a[2]/pd); L['cub'].append(cb/a[2]); L['dp'].append(dp/a[2]); L['cubpd'].append(Q[(n,'cublas')][0]/pd)
        print('%-18s %8.1f %8.1f %8.1f %8.1f %7.3f %8.1f %7.2f %7.3f  %s %sx%s %s'%(n,a[0],a[1],a[2],pd,a[2]/pd,cb,cb/a[2],dp/a[2],r['plan_mode'],r['tile_m'],r['tile_n'],r['repack']))
    print('geomean packed/padded %.3f  cublas/auto packed %.3f  (padded %.3f)  auto/dp packed %.3f'%(g(L['pkpd']),g(L['cub']),g(L['cubpd']),g(L['dp'])))
