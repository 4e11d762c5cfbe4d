#!/usr/bin/env python3
"""Session 51: the picks of every tile Stream-K or split-K on 128 x 128 over fewer tiles than
blocks over 1170 shapes (1-768 tokens as the kernel's A, 1024-32000 weights, 1024-14336 deep).

  python3 docs/results/2026-11-24-h200-clock/few_scan.py STREAMK_PLAN"""
import json,subprocess,itertools,sys
plan=sys.argv[1]
W=[1024,2048,4096,5120,8192,11008,12288,13824,14336,16384,18432,20480,24576,28672,32000]
T=[1,8,16,32,64,96,128,192,256,384,512,640,768]
K=[1024,2048,4096,5120,8192,14336]
for w,t,k in itertools.product(W,T,K):
    d=json.loads(subprocess.run([plan,str(t),str(w),str(k),'--json'],capture_output=True,text=True).stdout)
    if d['mode'] in ('streamk','splitk') and d['dp_tiles']==0 and d['sk_tiles']<d['sk_blocks'] and d['tile'][:2]==[128,128]:
        print(t,w,k,d['mode'],d['sk_tiles'],d['sk_blocks'],d['reduction'],d['predicted_us'],d['reason'][:150])
