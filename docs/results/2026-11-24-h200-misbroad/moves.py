#!/usr/bin/env python3
"""Session 55: the picks that move once the 128 x 320 tile is weighed on misaligned rows, between
two builds of streamk-plan, over run 291's 60 shapes (shapes.txt), the moves of 6000 random
paper-like shapes (seeds 11 and 7, rand_moved.txt) and of the issue's sets (run 258's 213 shapes,
sets_moved.txt); prints bench-style shape lines for streamk-bench --shapes and, as comments, each
shape's old pick as a streamk-bench mode (the mode moved_check.py times it by).

  python3 moves.py OLD_PLAN NEW_PLAN > moved.txt  (run 292)
  python3 moves.py OLD_PLAN NEW_PLAN rand_moved3.txt sets_moved3.txt > moved3.txt  (run 295)"""
import json, os, re, subprocess, sys
here = os.path.dirname(os.path.abspath(__file__))
def pick(b, m, n, k):  # planner M x N x K
    d = json.loads(subprocess.run([b, str(m), str(n), str(k), '--json', '--device', 'h200'],
                                  capture_output=True, text=True).stdout)
    return d
shapes = []  # bench NAME M N K (M: the planner's N)
for l in open(os.path.join(here, 'shapes.txt')):
    name, m, n, k = l.split()
    shapes.append((name, int(m), int(n), int(k)))
files = sys.argv[3:5] if len(sys.argv) > 4 else ['rand_moved.txt', 'sets_moved.txt']
for f, tag in zip(files, ('r', 'p')):
    for l in open(os.path.join(here, f)):
        x = re.match(r'\s*(\w+\s+)?(\d+) (\d+) (\d+) \(', l)  # planner M N K
        if x:
            m, n, k = int(x.group(2)), int(x.group(3)), int(x.group(4))
            if tag == 'p':  # run 258's CSV: bench M N K
                m, n = n, m
            if all((s[1], s[2], s[3]) != (n, m, k) for s in shapes):
                shapes.append((f'{tag}.w{n}.t{m}.k{k}', n, m, k))
lines, notes = [], []
for name, bm, bn, k in shapes:
    a, b = pick(sys.argv[1], bn, bm, k), pick(sys.argv[2], bn, bm, k)
    ka = (a['mode'], a['tile'][:2], a['dp_tiles'], a['sk_tiles'], a['repack_a'], a['repack_b'])
    kb = (b['mode'], b['tile'][:2], b['dp_tiles'], b['sk_tiles'], b['repack_a'], b['repack_b'])
    if ka == kb:
        continue
    mode = {'dp': 'dp', 'streamk': 'streamk', 'splitk': 'splitk'}[a['mode']]
    forced = f"{mode}/{a['tile'][0]}x{a['tile'][1]}x64"
    if a['repack_a'] or a['repack_b']:
        forced += ' (repacked: not forced)'
    lines.append(f'{name} {bm} {bn} {k}')
    notes.append(f'# old {name} {forced} {a["predicted_us"]:.1f} -> {kb[0]} '
                 f'{kb[1][0]}x{kb[1][1]} {b["predicted_us"]:.1f}')
print(f'# Session 55: {len(lines)} picks that move ({" ".join(sys.argv[3:5]) or "run 292"})')
print('\n'.join(lines))
print('\n'.join(notes))
