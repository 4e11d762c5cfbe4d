#!/usr/bin/env python3
"""Session 56: the moved shapes (moved_all.txt) whose old pick run 299 did not time exactly (its
forced mode planned another split or hybrid) or that ran split-K on clusters, each with the
streamk-bench mode that runs the old pick's very plan; one line per shape: NAME W T K MODE.

  python3 exact_modes.py OLD_PLAN > exact_modes.txt"""
import csv, json, os, subprocess, sys
here = os.path.dirname(os.path.abspath(__file__))
forced = {}
for r in csv.DictReader(open(os.path.join(here, 'run299', 'tn-fp16-1.csv'))):
    if r['status'] == 'ok' and r['mode'] != 'cublas':
        forced[(r['name'], r['mode'])] = (int(r['dp_tiles']), int(r['sk_tiles']),
                                          int(r['sk_blocks']))
for l in open(os.path.join(here, 'moved_all.txt')):
    name, w, tk, k = l.split()
    o = json.loads(subprocess.run([sys.argv[1], tk, w, k, '--json', '--device', 'h200'],
                                  capture_output=True, text=True).stdout)
    tile = '%dx%dx%d' % tuple(o['tile'])
    mode = '%s/%s' % (o['mode'], tile)
    if forced[(name, mode)] == (o['dp_tiles'], o['sk_tiles'], o['sk_blocks']) and \
            o['mode'] != 'splitk':
        continue
    if o['mode'] == 'splitk':
        exact = 'splitk:%d' % (o['sk_blocks'] // o['sk_tiles'])
    elif o['dp_tiles'] == 0:
        exact = 'streamk:%d' % o['sk_blocks']
    else:
        exact = 'streamk-tiles:%d:%d' % (o['sk_tiles'], o['sk_blocks'])
    print(name, w, tk, k, '%s/%s@%s' % (exact, tile, o['reduction']))
