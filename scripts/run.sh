#!/usr/bin/env bash
# The main job: set up, build, then show what streamk does for a default 4096 x 4096 x 4096 fp16
# GEMM. Without a GPU: the planner's decisions on the built-in H200 model. With one: the plan for
# the local GPU, then one GEMM run and checked against cuBLAS (streamk-demo).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
shape=(${STREAMK_SHAPE:-4096 4096 4096})
build/tools/streamk-plan "${shape[@]}" --device auto
if [[ -x build/tools/streamk-demo ]]; then
  build/tools/streamk-demo "${shape[@]}"
fi
