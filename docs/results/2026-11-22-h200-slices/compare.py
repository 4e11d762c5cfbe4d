# auto against dp per shape, back to back (scripts/gpu_bench.sh CSVs): `python3 compare.py
# run122/bench-fp16.csv run122/bench-bf16.csv`. A pair has the same plan when mode, Stream-K
# blocks, reduction, tile and repack agree; the 3% rule is about the pairs that differ.
import csv, collections, statistics, sys
fields = ('plan_mode', 'sk_blocks', 'reduction', 'tile_m', 'tile_n', 'repack')
for f in sys.argv[1:]:
    rows = collections.defaultdict(dict)
    for r in csv.DictReader(open(f)):
        if r['status'] == 'ok':
            rows[(r['set'], r['name'], r['m'], r['n'], r['k'])][r['mode']] = r
    pairs = [(float(d['dp']['time_us']) / float(d['auto']['time_us']), k, d) for k, d in rows.items()
             if 'auto' in d and 'dp' in d]
    differ = sorted(p for p in pairs if any(p[2]['auto'][x] != p[2]['dp'][x] for x in fields))
    same_low = sorted(p for p in pairs if p not in differ and p[0] < 0.97)
    print(f'{f}: plans differ on {len(differ)} of {len(pairs)} shapes; time(dp)/time(auto) there: '
          f'min {differ[0][0]:.3f} median {statistics.median(p[0] for p in differ):.3f}')
    for r, k, d in differ[:6]:
        a = d['auto']
        print(f'  differ {k[0]:6s} {k[1] or "x".join(k[2:])} {r:.3f}  auto {a["plan_mode"]} {a["sk_blocks"]} '
              f'blocks {a["reduction"]} tile {a["tile_m"]}x{a["tile_n"]}: {float(a["time_us"]):.1f} us, '
              f'dp {float(d["dp"]["time_us"]):.1f} us')
    for r, k, d in same_low:
        print(f'  same plan below 0.97: {k[0]} {"x".join(k[2:])} {r:.3f} ({float(d["auto"]["time_us"]):.1f} us)')
