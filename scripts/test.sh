#!/usr/bin/env bash
# Set up, build, and run every test: the C++ and CLI tests (ctest; GPU tests skip with the reason
# where there is no GPU), then the Python package installed as a user would (pip install ./python)
# into a virtual environment under build/, and its tests (those that need torch or a GPU skip).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"

venv=build/python-venv
[[ -x $venv/bin/python ]] || python3 -m venv "$venv"
"$venv/bin/python" -c "import pytest, wheel, setuptools" 2>/dev/null ||
  "$venv/bin/python" -m pip install -q pytest wheel "setuptools>=61"
"$venv/bin/python" -m pip install -q --no-build-isolation --no-deps --force-reinstall ./python
"$venv/bin/python" -m pytest -q python/tests
