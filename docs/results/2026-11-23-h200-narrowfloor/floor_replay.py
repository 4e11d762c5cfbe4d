#!/usr/bin/env python3
"""Session 47: auto replayed by streamk-fit over measured decode and wide CSVs, under the preset's
constants and under variants of them; prints every shape whose pick moves, what the moved pick
measured (None: not measured there) and the best measured plan.

  python3 docs/results/2026-11-23-h200-narrowfloor/floor_replay.py > floor_replay.txt

Needs build/tools/streamk-fit. Files joined by + are one replay (the same shapes measured in one
run, the operands as they are and copied)."""
import math, os, re, subprocess

root = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../..'))
os.chdir(root)
FIT = './build/tools/streamk-fit'
CONFIGS = ['main', 'alt', 'mid', 'wide', 'small', 'cluster']
R = 'docs/results/'
D = R + '2026-11-23-h200-decode2/'
P = R + '2026-11-23-h200-pdlcopy/'
M = R + '2026-11-23-h200-mnmajor/'
FILES = [M + 'run249/nn-off-1.csv+' + P + 'run252/decode-nn-a.csv',
         M + 'run249/nn-off-2.csv+' + P + 'run252/decode-nn-a.csv', P + 'run252/decode-tn-off.csv',
         D + 'run238/decode-1.csv', D + 'run241/a-nn-1.csv', D + 'run241/a-tn-1.csv',
         D + 'run242/moved-nn-1.csv', D + 'run242/moved-tn-1.csv', D + 'run243/final-nn.csv',
         D + 'run244/wide-nn-1.csv', D + 'run244/wide-tn-1.csv', D + 'run245/rounds-nn-1.csv',
         D + 'run245/rounds-tn-1.csv', M + 'run249/nn-a-1.csv', M + 'run249/tn-auto-1.csv',
         P + 'run252/wide-nn-off.csv+' + P + 'run252/wide-nn-on.csv',
         P + 'run252/wide-nt-off.csv+' + P + 'run252/wide-nt-on.csv']
# A field without a configuration's name is set on every configuration.
VARIANTS = {
    'without the 64 x 128 floor term': {'small.narrow_mn_floor_iter_us': 0},
    'the term on 128 x 128 too': {'alt.narrow_mn_floor_iter_us': 0.035},
    'floor 3.8 TB/s': {'hbm_bytes_per_us': 3.8e6},
    'floor 4.0 TB/s': {'hbm_bytes_per_us': 4.0e6},
}
ROW = re.compile(r'(\S+)\s+(\S+)\s+(\S+)\s+(.*?)\s+(unmeasured|[\d.]+)\s+([\d.]+)\s+'
                 r'([\d.]+)\s+(.*)$')


def set_flags(variant):
    pairs = []
    for field, value in variant.items():
        names = [field] if '.' in field else [f'{c}.{field}' for c in CONFIGS]
        pairs += [f'{n}={value}' for n in names]
    return ['--set', ','.join(pairs)] if pairs else []


def replay(files, variant):
    """{(set, name, shape): (pick, pick_us or None, best_us)}, or None if no model fits."""
    for model in ('alt', 'main', 'small', 'mid'):
        r = subprocess.run([FIT, '--model', model] + set_flags(variant) + files,
                           capture_output=True, text=True)
        if r.returncode == 0:
            break
    else:
        return None
    lines = r.stdout.split('\n')
    start = next((i for i, l in enumerate(lines) if 'auto pick' in l), None)
    if start is None:
        return None
    picks = {}
    for line in lines[start + 1:]:
        if not line.strip() or line.startswith('auto replayed'):
            break
        m = ROW.match(line)
        if m:
            picks[(m[1], m[2], m[3])] = (m[4].strip(), None if m[5] == 'unmeasured' else
                                         float(m[5]), float(m[7]))
    return picks


def main(files=FILES, variants=VARIANTS,
         header='Moves are from the preset (session 47: the 64 x 128 floor term at 0.035 us) to '
                'the variant.'):
    """Prints the picks each variant moves in each group of files, and the totals."""
    print(header)
    totals = {name: [0, 0, 0, 0.0] for name in variants}  # moved, measured, unmeasured, sum log
    for group in files:
        files = group.split('+')
        base = replay(files, {})
        if base is None:
            print('skipped', group)
            continue
        for name, variant in variants.items():
            other = replay(files, variant)
            moved = [(k, b, other[k]) for k, b in base.items()
                     if k in other and other[k][0] != b[0]]
            measured = [math.log(o[1] / b[1]) for _, b, o in moved if b[1] and o[1]]
            t = totals[name]
            t[0] += len(moved); t[1] += len(measured); t[2] += len(moved) - len(measured)
            t[3] += sum(measured)
            if not moved:
                continue
            mean = f'{math.exp(sum(measured) / len(measured)):.3f}' if measured else 'nan'
            where = '+'.join(os.path.relpath(f, R) for f in files)
            print(f'== {where} [{name}] {len(moved)} moved, measured {len(measured)} geomean '
                  f'new/old {mean}, unmeasured {len(moved) - len(measured)}')
            for k, b, o in moved:
                print(f'   {k[1]:14s} {k[2]:18s} {b[0]:40s} {b[1]} -> {o[0]:40s} {o[1]}  '
                      f'best {b[2]}')
    for name, (moved, measured, unmeasured, logs) in totals.items():
        mean = f'{math.exp(logs / measured):.4f}' if measured else 'nan'
        print(f'TOTAL {name}: moved {moved}, measured {measured} geomean new/old {mean}, '
              f'unmeasured {unmeasured}')


if __name__ == '__main__':
    main()
