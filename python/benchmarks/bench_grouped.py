"""streamk.grouped_mm against torch._grouped_mm and a loop of per-expert torch.matmul calls, on
the mixture-of-experts projections of `streamk-bench --moe` (Mixtral 8x7B, DeepSeek-V3,
Qwen3-235B-A22B): x (the tokens sorted by expert, rows x K) times each expert's nn.Linear
weight ([experts, N, K], read through its transposed view), bf16 by default (torch._grouped_mm
takes bf16).

Each token goes to `topk` distinct experts drawn with weights 1 / (r + 1)^skew over a random
ranking r of the experts (skew 0: uniform; 1.2: a few experts take most tokens), as the C++
benchmark routes them (its own random draws, so the groupings differ from its).

For each case, after checking every result against the per-expert loop, the GPU time of one
call: a CUDA graph of `--inner` calls replayed `--reps` times, median. streamk.grouped_mm runs
twice: with offs on the GPU (read when the kernel runs, planned for all rows; what a captured
model does, and what torch._grouped_mm takes) and with offs on the host (planned for the exact
groups).

    python python/benchmarks/bench_grouped.py --csv grouped.csv
"""

import argparse
import csv
import statistics
import sys

import torch

import streamk
from gpu_timing import graph_time_us

PROJECTIONS = [("mixtral-gate-up", 8, 2, 2 * 14336, 4096), ("mixtral-down", 8, 2, 4096, 14336),
               ("deepseek-v3-gate-up", 256, 8, 2 * 2048, 7168),
               ("deepseek-v3-down", 256, 8, 7168, 2048),
               ("qwen3-gate-up", 128, 8, 2 * 1536, 4096), ("qwen3-down", 128, 8, 4096, 1536)]


def route_tokens(experts, topk, tokens, skew, seed):
    gen = torch.Generator().manual_seed(seed)
    rank = torch.randperm(experts, generator=gen).double()
    weight = (rank + 1.0) ** -skew
    picks = torch.multinomial(weight.expand(tokens, experts), min(topk, experts),
                              replacement=False, generator=gen)
    return torch.bincount(picks.flatten(), minlength=experts).tolist()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dtype", default="bf16", choices=["fp16", "bf16"])
    p.add_argument("--tokens", default="64,512,4096,16384")
    p.add_argument("--skews", default="0,1.2")
    p.add_argument("--projections", default="", help="names, comma-separated (default: all)")
    p.add_argument("--inner", type=int, default=5)
    p.add_argument("--reps", type=int, default=11)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--csv", default="")
    args = p.parse_args()
    dtype = torch.float16 if args.dtype == "fp16" else torch.bfloat16
    tokens_list = [int(t) for t in args.tokens.split(",")]
    skews = [float(s) for s in args.skews.split(",")]
    chosen = set(args.projections.split(",")) if args.projections else None
    has_torch_grouped = hasattr(torch, "_grouped_mm")
    torch.manual_seed(args.seed)
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, streamk "
          f"{streamk.version()}, {args.dtype}; GPU us per call (graph replay), medians of "
          f"{args.reps}; torch._grouped_mm {'present' if has_torch_grouped else 'absent'}")
    header = ["projection", "experts", "topk", "n", "k", "tokens", "skew", "rows",
              "experts_with_rows", "streamk_dev_us", "streamk_host_us", "torch_grouped_us",
              "loop_us"]
    print(f"{'projection':<20} {'tokens':>6} {'skew':>4} {'rows':>6} {'sk dev':>9} "
          f"{'sk host':>9} {'torch gmm':>9} {'loop':>9}  {'gmm/dev':>7} {'loop/dev':>8}")
    rows_out = []
    over = {s: {"gmm": [], "loop": []} for s in skews}
    failures = 0
    for name, experts, topk, n, k in PROJECTIONS:
        if chosen is not None and name not in chosen:
            continue
        w = (torch.randn(experts, n, k, device="cuda") / k ** 0.5).to(dtype)
        wt = w.transpose(1, 2)  # [experts, k, n], column-major per expert
        for tokens in tokens_list:
            for skew in skews:
                sizes = route_tokens(experts, topk, tokens, skew, args.seed * 1000003 + tokens)
                total = sum(sizes)
                ends = torch.tensor(sizes, dtype=torch.int64).cumsum(0).to(torch.int32)
                offs_dev = ends.cuda()
                x = torch.randn(total, k, device="cuda").to(dtype)
                bounds = [0] + ends.tolist()
                out_loop = torch.empty(total, n, device="cuda", dtype=dtype)

                def loop():
                    for e in range(experts):
                        if bounds[e + 1] > bounds[e]:
                            torch.matmul(x[bounds[e]:bounds[e + 1]], wt[e],
                                         out=out_loop[bounds[e]:bounds[e + 1]])

                loop()
                ref = out_loop.float()
                checks = {"streamk_dev": lambda: streamk.grouped_mm(x, wt, offs_dev),
                          "streamk_host": lambda: streamk.grouped_mm(x, wt, ends)}
                if has_torch_grouped:
                    checks["torch_grouped"] = lambda: torch._grouped_mm(x, wt, offs=offs_dev)
                times = {}
                for label, fn in checks.items():
                    try:
                        got = fn().float()
                    except RuntimeError as e:  # torch._grouped_mm's own limits (dtype, arch)
                        print(f"{name} tokens {tokens} skew {skew}: {label}: {e}".splitlines()[0],
                              file=sys.stderr)
                        times[label] = float("nan")
                        continue
                    err = ((got - ref).norm() / ref.norm().clamp_min(1e-30)).item()
                    if not err < 1e-2:
                        print(f"{name} tokens {tokens} skew {skew}: {label} WRONG, relative "
                              f"error {err:.3g}", file=sys.stderr)
                        failures += 1
                        times[label] = float("nan")
                        continue
                    times[label] = graph_time_us(fn, args.inner, args.reps)
                times["loop"] = graph_time_us(loop, args.inner, args.reps)
                dev = times["streamk_dev"]
                gmm = times.get("torch_grouped", float("nan"))
                used = sum(1 for s in sizes if s)
                print(f"{name:<20} {tokens:>6} {skew:>4.1f} {total:>6} {dev:>9.1f} "
                      f"{times['streamk_host']:>9.1f} {gmm:>9.1f} {times['loop']:>9.1f}  "
                      f"{gmm / dev:>7.3f} {times['loop'] / dev:>8.3f}")
                if gmm == gmm and dev == dev:
                    over[skew]["gmm"].append(gmm / dev)
                if dev == dev:
                    over[skew]["loop"].append(times["loop"] / dev)
                rows_out.append([name, experts, topk, n, k, tokens, skew, total, used,
                                 f"{dev:.2f}", f"{times['streamk_host']:.2f}", f"{gmm:.2f}",
                                 f"{times['loop']:.2f}"])
    for skew in skews:
        g, lp = over[skew]["gmm"], over[skew]["loop"]
        if lp:
            line = (f"# skew {skew}: {len(lp)} cases; streamk.grouped_mm (offs on the GPU) over "
                    f"the per-expert loop {statistics.geometric_mean(lp):.3f} (geomean)")
            if g:
                line += (f", over torch._grouped_mm {statistics.geometric_mean(g):.3f} (geomean, "
                         f"worst {min(g):.3f})")
            print(line)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            wr = csv.writer(f)
            wr.writerow(header)
            wr.writerows(rows_out)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
