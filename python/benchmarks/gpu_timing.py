"""GPU time of a call for the benchmarks here: CUDA graph replay, medians."""

import statistics

import torch


def graph_time_us(fn, inner, reps):
    """Microseconds per call of fn: three warm-up calls on a side stream, then a CUDA graph of
    `inner` calls replayed `reps` times, timed with CUDA events; the median."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(inner):
            fn()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        g.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000 / inner)
    return statistics.median(times)
