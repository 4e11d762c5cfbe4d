#!/usr/bin/env python3
"""Session 53: run 286's moved picks, auto (now data-parallel 128 x 320) against the old pick
forced in the same pass. The old pick per shape is read from grid_moved.txt and rand_moved.txt;
data-parallel and every-tile Stream-K picks are forced exactly (dp/TILE, streamk/TILE), the
partial round's tiles Stream-K on 128 x 256 by streamk-tail/128x256x64, and the hybrids of 128 x 128
(132 tiles data-parallel, the rest Stream-K) have no exact mode: they are compared with every
tile Stream-K on 128 x 128 and marked '~'.

  python3 docs/results/2026-11-24-h200-broad/moved_check.py docs/results/2026-11-24-h200-broad"""
import ast, csv, glob, math, os, re, sys
here = sys.argv[1]
old = {}
for line in open(os.path.join(here, 'grid_moved.txt')):
    m = re.match(r'# (\d+) x (\d+) x (\d+): (\(.*?\)) ->', line)
    if m:
        old[(m[1], m[2], m[3])] = ast.literal_eval(m[4])
for line in open(os.path.join(here, 'rand_moved.txt')):
    m = re.match(r'(\d+) (\d+) (\d+) (\(.*?\)) ->', line)
    if m:  # planner M N K: bench N M K
        old[(m[2], m[1], m[3])] = ast.literal_eval(m[4])
def forced(p):
    mode, (tm, tn), dp, sk = p[0], p[1], p[2], p[3]
    tile = f'{tm}x{tn}x64'
    if mode == 'dp':
        return f'dp/{tile}', ''
    if dp == 0:
        return f'streamk/{tile}', ''
    if tn == 256:
        return f'streamk-tail/{tile}', ''
    return f'streamk/{tile}', '~'
per, rows = {}, []
for f in sorted(glob.glob(os.path.join(here, 'run286', '[tn]n-*-[12].csv'))):
    pas = os.path.basename(f)[:-4]
    t = {}
    for r in csv.DictReader(open(f)):
        t.setdefault((r['m'], r['n'], r['k']), {})[r['mode']] = r
    for key, m in t.items():
        mode, mark = forced(old[key])
        a = float(m['auto']['time_us'])
        ratio = float(m[mode]['time_us']) / a
        per.setdefault(key, []).append((ratio, float(m['dp']['time_us']) / a,
                                        float(m['cublas']['time_us']) / a))
        rows.append((pas, key, mode + mark, a, ratio))
print('time(old pick) / time(auto, 128 x 320), per shape over four passes (tn fp16 x2, nn fp16,'
      ' tn bf16); dp/auto; cuBLAS/auto')
logs = []
for key, v in sorted(per.items(), key=lambda kv: min(x[0] for x in kv[1])):
    g = math.exp(sum(math.log(x[0]) for x in v) / len(v))
    logs.append(math.log(g))
    mode, mark = forced(old[key])
    print(f"  {'x'.join(key):18} old {mode + mark:26} {g:6.3f} ({min(x[0] for x in v):.3f}-"
          f"{max(x[0] for x in v):.3f})  dp/auto min {min(x[1] for x in v):.3f}  cuBLAS/auto "
          f"{math.exp(sum(math.log(x[2]) for x in v) / len(v)):.3f}")
print(f'{len(per)} shapes: geomean time(old) / time(new) {math.exp(sum(logs) / len(logs)):.3f}, '
      f'{sum(1 for l in logs if l < 0)} where the old pick ran faster')
