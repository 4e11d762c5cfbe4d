import json,subprocess,itertools,sys
W=[4096,5120,8192,11008,12288,13824,14336,16384,18432,20480,24576,28672,32000]
T=[128,256,384,512,640,768,1024,2048,4096]
K=[4096,5120,8192,14336]
def pick(b,t,w,k):
    d=json.loads(subprocess.run([b,str(t),str(w),str(k),'--json'],capture_output=True,text=True).stdout)
    return (d['mode'],tuple(d['tile']),d['dp_tiles'],d['sk_tiles'],d['reduction'])
n=0
for w,t,k in itertools.product(W,T,K):
    a=pick(sys.argv[1],t,w,k); b=pick(sys.argv[2],t,w,k)
    if a!=b: n+=1; print(t,w,k,a,'->',b)
print(n,'of',len(W)*len(T)*len(K))
