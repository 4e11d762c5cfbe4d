# Run 118's Nsight Compute warp-stall samples of 16x4096x4096 (auto: split-K by 4, separate
# reduction), per SASS instruction of the 128 x 128 fp16 TMA kernel: `python3 stalls.py` beside
# run118/stalls.csv.xz prints the samples per stall reason and per contiguous range of executed
# code (offsets into the kernel's code; a range ends where the next executed instruction is more
# than one instruction away).
import csv, io, lzma, os

here = os.path.dirname(os.path.abspath(__file__))
rows = list(csv.DictReader(io.TextIOWrapper(lzma.open(os.path.join(here, 'run118/stalls.csv.xz')))))
reasons = [k for k in rows[0] if k.startswith('stall_')]
total = sum(int(r['Warp Stall Sampling (All Samples)'] or 0) for r in rows)
print(f'{total} samples; executed instructions {sum(1 for r in rows if int(r["Instructions Executed"] or 0))}')
for k in reasons:
    n = sum(int(r[k] or 0) for r in rows)
    print(f'  {k:24s} {n:6d} {100.0 * n / total:5.1f}%')
ranges, cur = [], None
for r in rows:
    a, e = int(r['offset'], 16), int(r['Instructions Executed'] or 0)
    s, ni = int(r['Warp Stall Sampling (All Samples)'] or 0), int(r['stall_no_inst'] or 0)
    if e == 0:
        continue
    if cur and a - cur['end'] <= 0x10:
        cur['end'] = a; cur['n'] += 1; cur['s'] += s; cur['ni'] += ni
    else:
        cur = dict(begin=a, end=a, n=1, s=s, ni=ni, first=r['Source'][:48]); ranges.append(cur)
print('range            instrs samples no_inst  first instruction')
for c in ranges:
    if c['n'] >= 20 or c['s'] >= 10:
        print(f'{c["begin"]:06x}-{c["end"]:06x} {c["n"]:6d} {c["s"]:7d} {c["ni"]:7d}  {c["first"]}')
