#!/usr/bin/env bash
# Set up, build, and run every test. GPU tests skip (with the reason) where there is no GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
