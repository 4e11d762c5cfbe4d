#!/usr/bin/env python3
"""Runs 124-125: what the 128 x 192 tile adds. Per set: the best forced data-parallel time
without and with it, the best of the forced modes without and with it (dp and Stream-K on
128 x 256 and 128 x 128 / 128 x 192), how many shapes gain 3% or more, auto against the best
forced mode, and cuBLAS against each. Usage: tiles.py tiles-fp16.csv"""
import csv, math, collections, sys
rows=[r for r in csv.DictReader(open(sys.argv[1])) if r['status']=='ok']
by=collections.defaultdict(dict)
for r in rows: by[(r['set'],r['name'],int(r['m']),int(r['n']),int(r['k']))][r['mode']]=r
g=lambda x: math.exp(sum(map(math.log,x))/len(x))
for st in ('waveq','paper','llm'):
    gain2=[];gain3=[];autor=[];cub2=[];cub3=[];cuba=[]
    wins=0
    for key,d in by.items():
        if key[0]!=st: continue
        t=lambda m: float(d[m]['time_us'])
        dp2=min(t('dp/128x256x64'),t('dp/128x128x64'))
        dp3=min(dp2,t('dp/128x192x64'))
        all2=min(dp2,t('streamk/128x256x64'))
        all3=min(all2,dp3,t('streamk/128x192x64'))
        gain2.append(dp2/dp3); gain3.append(all2/all3)
        if all3<all2*0.97: wins+=1
        autor.append(all3/t('auto'))
        cub2.append(t('cublas')/all2); cub3.append(t('cublas')/all3); cuba.append(t('cublas')/t('auto'))
    if not gain2: continue
    print(st, 'best-dp gain from 192: %.3f'%g(gain2), ' best-of-4 -> best-of-6 gain %.3f max %.3f'%(g(gain3),max(gain3)), 'shapes >3%%: %d/%d'%(wins,len(gain3)),
          ' auto vs best-of-6 %.3f min %.3f'%(g(autor),min(autor)), ' cublas/best: %.3f -> %.3f; cublas/auto %.3f'%(g(cub2),g(cub3),g(cuba)))
