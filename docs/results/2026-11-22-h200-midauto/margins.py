# Session 24: the evidence behind kMinMidTileGain and kMinMidOverStreamKGain (lib/planner.cc):
# predicted against measured gains of the 128x192 tile's data-parallel plan.
# (1) Run 127 (auto took it where predicted 5% under the other tiles' data-parallel pick): per
#     moved shape, the predicted gain and time(HEAD's auto) / time(this auto).
# (2) Run 128 (8%, never over a Stream-K pick): per shape that auto ran Stream-K while dp ran
#     128x192, the predicted and measured time(Stream-K) / time(128x192 data-parallel).
# Predictions by streamk-plan (the bench's M x N x K is the planner's N x M x K).
# Usage: python3 margins.py build/tools/streamk-plan run127/csv.tgz run128/csv.tgz
import csv, io, re, subprocess, sys, tarfile

plan_tool = sys.argv[1]


def rows(tgz, name):
    with tarfile.open(tgz) as t:
        text = t.extractfile(name).read().decode()
    return {(r['set'], r['name'], r['m'], r['n'], r['k'], r['mode']): r
            for r in csv.DictReader(io.StringIO(text)) if r['status'] == 'ok'}


def predicted(m, n, k, *flags):
    out = subprocess.run([plan_tool, *flags, n, m, k], capture_output=True, text=True).stdout
    return float(re.search(r'^predicted\s+([\d.]+) us', out, re.M).group(1))


def tile(r):
    return f"{r['tile_m']}x{r['tile_n']}x64"


print("(1) run 127, moved from HEAD's pick to 128x192 data-parallel: predicted gain, measured")
new, head = rows(sys.argv[2], 'ab-new.csv'), rows(sys.argv[2], 'ab-head.csv')
for key, r in sorted(new.items()):
    h = head.get(key)
    if key[5] != 'auto' or not h or r['tile_n'] != '192' or h['tile_n'] == '192':
        continue
    m, n, k = key[2:5]
    mid = predicted(m, n, k, '--tile', '128x192x64', '--mode', 'dp')
    other = predicted(m, n, k, '--tile', tile(h), '--mode', h['plan_mode'])
    print(f"  {m}x{n}x{k:<6} {h['plan_mode']:8} {tile(h):12} predicted {other / mid:.3f}  "
          f"measured {float(h['time_us']) / float(r['time_us']):.3f}")

print("(2) run 128, auto Stream-K against dp on 128x192: predicted, measured time(SK) / time(dp)")
for dtype in ('fp16', 'bf16'):
    b = rows(sys.argv[3], f'bench-{dtype}.csv')
    for key, r in sorted(b.items()):
        dp = b.get(key[:5] + ('dp',))
        if key[5] != 'auto' or r['plan_mode'] == 'dp' or not dp or dp['tile_n'] != '192':
            continue
        m, n, k = key[2:5]
        sk = predicted(m, n, k, '--dtype', dtype, '--tile', tile(r))
        mid = predicted(m, n, k, '--dtype', dtype, '--tile', '128x192x64', '--mode', 'dp')
        print(f"  {dtype} {m}x{n}x{k:<6} {r['plan_mode']} {tile(r)}  predicted {sk / mid:.3f}  "
              f"measured {float(r['time_us']) / float(dp['time_us']):.3f}")
