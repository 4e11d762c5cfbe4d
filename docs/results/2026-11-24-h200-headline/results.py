#!/usr/bin/env python3
"""Run 295's benchmark (run295/csv.tgz) as docs/performance.md's Results table, by session 40's
results.py (python3 results.py > results.txt)."""
import os, runpy, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.argv = [sys.argv[0], os.path.join(here, 'run295')]
runpy.run_path(os.path.join(here, '../2026-11-23-h200-crosstile/results.py'), run_name='__main__')
