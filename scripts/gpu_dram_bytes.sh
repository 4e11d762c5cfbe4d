#!/usr/bin/env bash
# DRAM bytes each plan reads, from the GPU's counters (Nsight Compute), with the plan's shape as
# the planner sees it: the measurements the cost model's Stream-K re-read term (StreamKGemmBytes)
# is checked against (docs/results/2026-12-07-h100/streamk-dram-bytes.md).
#
#   scripts/gpu_dram_bytes.sh --bin BUNDLE [--out DIR] [--shapes S1,S2,...] [--plans P1,P2,...]
#                             [--device h100|h200] [--timeout SECONDS]
#
# --bin      a folder with streamk-bench and streamk-plan, or a bundle made by
#            ../shared/scripts/gpu-bundle
# --shapes   streamk-bench shapes (D column-major: the planner's m is the second number)
# --plans    streamk-bench modes of one plan each (dp/T, streamk/T, streamk:BLOCKS/T)
# --device   the streamk-plan preset that describes the plans (default h100)
# --timeout  stops starting plans after this many seconds (default 280)
#
# Writes OUT/ncu.txt (ncu's output per plan) and OUT/dram-bytes.csv (shape, plan, the planner's
# m, n, k, tile and tiles, Stream-K tiles and blocks, the kernel's us and the DRAM bytes it read)
# and prints the CSV. Each plan is one launch after two warm-up launches, at the GPU's own clocks
# (--clock-control none).
set -uo pipefail
cd "$(dirname "$0")/.."
bundle="" out=experiments/dram-bytes-$(date -u +%Y%m%d-%H%M%S) device=h100 timeout=280
shapes=5888x2944x8192,2048x28672x8192,5120x3456x4096,2048x11008x4096,4096x4096x11008,512x28672x8192,4096x10240x8192,5120x2560x8192,3072x2944x8192,1792x2432x8192,512x8192x28672
plans=streamk/128x128x64,streamk/128x192x64,streamk/128x256x64,streamk/192x192x64,streamk/64x128x64,dp/128x256x64,streamk:264/128x128x64
while (($#)); do
  case $1 in
    --bin) bundle=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --shapes) shapes=$2; shift 2 ;;
    --plans) plans=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    *) echo "gpu_dram_bytes.sh: unknown argument '$1' (see the comment at the top)" >&2; exit 2 ;;
  esac
done
[[ -n $bundle ]] || { echo "gpu_dram_bytes.sh: --bin BUNDLE is required" >&2; exit 2; }
run() { if [[ -x $bundle/run ]]; then "$bundle/run" "$@"; else "$bundle/$1" "${@:2}"; fi; }
bench=("$bundle/run" streamk-bench)
[[ -x $bundle/run ]] || bench=("$bundle/streamk-bench")
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
[[ -n $ncu ]] || { echo "gpu_dram_bytes.sh: ncu (Nsight Compute) is not installed" >&2; exit 2; }
mkdir -p "$out"
: > "$out/ncu.txt"
echo "shape,plan,m,n,k,tile_m,tile_n,tiles_m,tiles_n,sk_tiles,sk_blocks,tiles_per_sk_block,us,dram_read_bytes" \
  > "$out/dram-bytes.csv"
t0=$SECONDS
for shape in ${shapes//,/ }; do
  IFS=x read -r bm bn bk <<< "$shape"
  for plan in ${plans//,/ }; do
    (( SECONDS - t0 > timeout )) && break 2
    kind=${plan%%/*} tile=${plan#*/}
    case $kind in
      dp) flags=(--mode dp) ;;
      streamk) flags=(--mode streamk) ;;
      streamk:*) flags=(--mode streamk --blocks "${kind#streamk:}") ;;
      *) echo "gpu_dram_bytes.sh: plan '$plan' is not dp/T, streamk/T or streamk:N/T" >&2; exit 2 ;;
    esac
    log=$(timeout 60 "$ncu" --clock-control none -k regex:StreamKGemmKernel --launch-skip 2 \
      --launch-count 1 --metrics dram__bytes_read.sum,gpu__time_duration.sum \
      "${bench[@]}" --shape "$shape" --modes "$plan" --timing launches --warmup 2 \
      --reps 1 --inner 1 2>&1)
    printf '== %s %s\n%s\n' "$shape" "$plan" "$log" >> "$out/ncu.txt"
    json=$(run streamk-plan "$bn" "$bm" "$bk" --device "$device" --tile "$tile" "${flags[@]}" --json)
    python3 - "$shape" "$plan" "$json" "$log" >> "$out/dram-bytes.csv" <<'EOF'
import json, re, sys
shape, plan, js, log = sys.argv[1:5]
p = json.loads(js)
scale = {'byte': 1, 'Kbyte': 1e3, 'Mbyte': 1e6, 'Gbyte': 1e9, 'ns': 1e-3, 'us': 1, 'ms': 1e3}
v = {}
for name, unit, x in re.findall(r'^\s+(\S+)\s+(\S+)\s+([\d.]+)\s*$', log, re.M):
    if unit in scale: v[name] = float(x) * scale[unit]
if 'dram__bytes_read.sum' not in v: sys.exit(0)  # ncu read nothing: the log says why
sk, blocks = p['sk_tiles'], p['sk_blocks']
per = sk / blocks if blocks else 0
print(f"{shape},{plan},{p['m']},{p['n']},{p['k']},{p['tile'][0]},{p['tile'][1]},{p['tiles_m']},"
      f"{p['tiles_n']},{sk},{blocks},{per:.2f},{v.get('gpu__time_duration.sum', 0):.1f},"
      f"{v['dram__bytes_read.sum']:.0f}")
EOF
  done
done
cat "$out/dram-bytes.csv"
