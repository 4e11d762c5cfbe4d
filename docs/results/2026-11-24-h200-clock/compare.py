#!/usr/bin/env python3
"""Session 51: run 271, each row's new pick (this build's auto) against its old pick (9b4898c's
auto, streamk-bench-old, timed just before in the same pass) and against `dp`, per pass.
Across the two binaries the times do not compare: the old one timed two modes, the new nine, and
the same plans ran 4-17% faster in the old one's runs (the rows that keep their pick, `(same)`,
and `dp`; the power cap). Within each binary auto against `dp` does, and inpass.py compares the
picks where a forced mode runs the old one.

  python3 docs/results/2026-11-24-h200-clock/compare.py RUN_DIR"""
import csv, math, sys
run = sys.argv[1]
def load(f):
    out = {}
    for r in csv.DictReader(open(f)):
        if r['status'] == 'ok':
            out.setdefault(r['name'], {})[r['mode']] = r
    return out
def plan(r):
    return (f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']} dp{r['dp_tiles']}+sk{r['sk_tiles']}"
            f"/{r['sk_blocks']}{' sep' if r['reduction'] == 'separate' else ''}")
moved, ratios_dp, ratios_dp_old, kept, dps = [], [], [], [], []
for p in (1, 2):
    old, new = load(f'{run}/old-{p}.csv'), load(f'{run}/new-{p}.csv')
    print(f'pass {p}: new auto / old auto, and dp / auto for each (us)')
    for name, m in new.items():
        a, o = m['auto'], old[name]['auto']
        t, to = float(a['time_us']), float(o['time_us'])
        dp, dpo = float(m['dp']['time_us']), float(old[name]['dp']['time_us'])
        same = plan(a) == plan(o)
        if not same:
            moved.append(math.log(t / to))
        else:
            kept.append(math.log(t / to))
        if m['dp']['tile_n'] == old[name]['dp']['tile_n']:
            dps.append(math.log(dp / dpo))
        ratios_dp.append(dp / t)
        ratios_dp_old.append(dpo / to)
        print(f'   {name:22s} {plan(o):34s} {to:6.1f} -> {plan(a) if not same else "(same)":34s} '
              f'{t:6.1f}  {t / to if not same else 1:.3f}   dp/auto old {dpo / to:.3f} new {dp / t:.3f}')
g = lambda v: math.exp(sum(math.log(x) for x in v) / len(v))
print(f'\nmoved rows, both passes: {len(moved)}, new/old geomean {math.exp(sum(moved) / len(moved)):.3f}'
      f' ({math.exp(min(moved)):.3f}-{math.exp(max(moved)):.3f})')
print(f'the same plans, new binary / old: kept picks {math.exp(sum(kept) / len(kept)):.3f}, '
      f'dp {math.exp(sum(dps) / len(dps)):.3f}')
print(f'auto/dp over all rows and passes: old build {g(ratios_dp_old):.3f} (min {min(ratios_dp_old):.3f}),'
      f' new build {g(ratios_dp):.3f} (min {min(ratios_dp):.3f})')
