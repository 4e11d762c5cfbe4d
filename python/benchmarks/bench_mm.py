"""streamk.mm against torch.matmul from PyTorch on the llm set (the projections of 7B and 70B
models at 16-4096 tokens, as `streamk-bench --set llm`): x (tokens x K) @ W.T with W an
nn.Linear's (N x K) weight, fp16 or bf16.

For each shape, after checking streamk.mm's result against torch.matmul:
  - GPU time per call: a CUDA graph of `--inner` calls replayed `--reps` times, median;
  - time per call back to back (eager, the host's pace included), median;
  - host time per call: the wall time of issuing `--inner` back-to-back calls without
    synchronizing, divided by the count (what each call costs the Python thread).

    python python/benchmarks/bench_mm.py --dtype fp16 --csv out.csv
"""

import argparse
import csv
import statistics
import sys
import time

import torch

import streamk
from gpu_timing import graph_time_us

PROJECTIONS = [("7b.qkv", 12288, 4096), ("7b.up", 11008, 4096), ("7b.down", 4096, 11008),
               ("70b.qkv", 10240, 8192), ("70b.up", 28672, 8192), ("70b.down", 8192, 28672)]
TOKENS = [16, 64, 128, 512, 2048, 4096]


def eager_time_us(fn, inner, reps):
    for _ in range(3):
        fn()
    times, host = [], []
    for _ in range(reps):
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        t1 = time.perf_counter()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000 / inner)
        host.append((t1 - t0) * 1e6 / inner)
    return statistics.median(times), statistics.median(host)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dtype", default="fp16", choices=["fp16", "bf16"])
    p.add_argument("--inner", type=int, default=10)
    p.add_argument("--reps", type=int, default=15)
    p.add_argument("--csv", default="")
    args = p.parse_args()
    dtype = torch.float16 if args.dtype == "fp16" else torch.bfloat16
    torch.manual_seed(0)
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, streamk "
          f"{streamk.version()}, {args.dtype}; times in us per call, medians of {args.reps}")
    header = ["shape", "m", "n", "k", "streamk_graph_us", "torch_graph_us", "streamk_eager_us",
              "torch_eager_us", "streamk_host_us", "torch_host_us", "graph_ratio"]
    print(" ".join(f"{h:>16}" if i else f"{h:<16}" for i, h in enumerate(header)))
    rows, ratios = [], []
    for name, n, k in PROJECTIONS:
        w = torch.randn(n, k, device="cuda").to(dtype) / k ** 0.5
        for m in TOKENS:
            x = torch.randn(m, k, device="cuda").to(dtype)
            ref = torch.matmul(x, w.t()).float()
            got = streamk.mm(x, w.t()).float()
            err = ((got - ref).norm() / ref.norm()).item()
            if not err < 1e-2:
                print(f"{name}.m{m}: WRONG, relative error {err:.3g}", file=sys.stderr)
                return 1
            ours = lambda: streamk.mm(x, w.t())  # noqa: E731
            theirs = lambda: torch.matmul(x, w.t())  # noqa: E731
            sg = graph_time_us(ours, args.inner, args.reps)
            tg = graph_time_us(theirs, args.inner, args.reps)
            se, sh = eager_time_us(ours, args.inner, args.reps)
            te, th = eager_time_us(theirs, args.inner, args.reps)
            row = [f"{name}.m{m}", m, n, k, sg, tg, se, te, sh, th, tg / sg]
            rows.append(row)
            ratios.append(tg / sg)
            print(" ".join(f"{v:>16.2f}" if isinstance(v, float) else
                           (f"{v:>16}" if i else f"{v:<16}") for i, v in enumerate(row)))
    geo = statistics.geometric_mean(ratios)
    print(f"# torch.matmul time / streamk.mm time in graph replay: geomean {geo:.3f}, "
          f"min {min(ratios):.3f}, max {max(ratios):.3f}; host us per call: streamk "
          f"{statistics.median(r[8] for r in rows):.1f}, torch "
          f"{statistics.median(r[9] for r in rows):.1f} (medians)")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            wr = csv.writer(f)
            wr.writerow(header)
            wr.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
