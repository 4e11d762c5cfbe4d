#!/usr/bin/env bash
# Installs what streamk needs on Debian 12 (idempotent: installs only what is missing), then
# configures and builds into build/. Needs the CUDA toolkit (nvcc, cuBLAS) already installed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make libabsl-dev libgtest-dev libbenchmark-dev nlohmann-json3-dev)
# The Python package's tests run in a virtual environment (scripts/test.sh).
python3 -c "import venv, ensurepip" 2>/dev/null || packages+=(python3-venv)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null; then
  for d in /usr/local/cuda/bin /usr/local/cuda-13.0/bin; do
    [[ -x $d/nvcc ]] && export PATH="$d:$PATH" && break
  done
fi
command -v nvcc >/dev/null || {
  echo "setup: nvcc not found: install the CUDA toolkit (12.x or 13.x) first" >&2
  exit 1
}

jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$(command -v nvcc)" \
  ${STREAMK_CUDA_ARCHITECTURES:+-DCMAKE_CUDA_ARCHITECTURES="$STREAMK_CUDA_ARCHITECTURES"} >/dev/null
cmake --build build -j "$jobs"
