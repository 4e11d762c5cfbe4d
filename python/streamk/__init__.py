"""streamk: GEMM on NVIDIA tensor cores with a Stream-K work decomposition, from Python.

    import torch, streamk
    d = streamk.mm(a, b)                              # a @ b, fp16 or bf16 on a CUDA device
    d = streamk.mm(a, b, out_dtype=torch.float32)     # fp32 D from fp16 inputs
    y = streamk.addmm(bias, x, w.t(), beta=1.0)       # beta * bias + alpha * x @ w.T
    d = streamk.mm(a, b, schedule="dynamic")          # beside kernels that hold some SMs
    y = streamk.grouped_mm(x, w.transpose(1, 2), offs)  # mixture of experts: x's rows by expert
    streamk.plan(4096, 4096, 4096, device="h200")     # the planner's decision, as a dict
    streamk.use_device_profile("h100.json")           # plan with a calibrated device profile

mm and addmm are PyTorch operators (torch.ops.streamk.mm, torch.ops.streamk.addmm) with fake
tensor implementations and autograd, so they work under torch.compile(fullgraph=True) and in
captured CUDA graphs. plan() needs no torch and no GPU for the built-in device models.
"""

from __future__ import annotations

import os
import ctypes
from typing import Any, Optional, Sequence, Union

from . import _lib

__all__ = ["mm", "addmm", "grouped_mm", "plan", "plan_grouped", "version", "release_workspaces", "use_device_profile"]


def version() -> str:
    """The version of the loaded libstreamk_c ("0.1.0")."""
    return _lib.library().version()


__version__ = "0.1.0"


def _dtype_code(name: str, value: Any) -> int:
    key = value if isinstance(value, str) else str(value).replace("torch.", "")
    if key not in _lib.DTYPES:
        raise ValueError(f"{name} = {value!r}: must be fp16, bf16 or fp32")
    return _lib.DTYPES[key]


def _options(lib: "_lib.Library", mode: str, splits: int, blocks: int, reduction: Optional[str],
             tile: Optional[tuple[int, int, int]], avail_sms: int,
             max_workspace_bytes: int, schedule: str = "auto", mainloop: Optional[str] = None,
             pingpong: Optional[bool] = None, narrow_wgmma: bool = True,
             store_d: Optional[str] = None) -> "_lib.Options":
    if mode not in _lib.MODES:
        raise ValueError(f"mode = {mode!r}: must be one of {', '.join(_lib.MODES)}")
    if reduction not in _lib.REDUCTIONS:
        raise ValueError(f"reduction = {reduction!r}: must be deterministic, atomic or separate")
    schedule_code = _lib.schedule_code(schedule)
    if mainloop not in _lib.MAINLOOPS:
        raise ValueError(f"mainloop = {mainloop!r}: must be None, sm80, sm90-cpasync or sm90-tma")
    if pingpong not in (None, True, False):
        raise ValueError(f"pingpong = {pingpong!r}: must be None, True or False")
    if store_d not in _lib.STORE_D:
        raise ValueError(f"store_d = {store_d!r}: must be None, threads, tma, rows or rows-warp")
    o = lib.new_options()
    o.schedule = schedule_code
    o.mainloop = _lib.MAINLOOPS[mainloop]
    o.pingpong = _lib.TOGGLES[pingpong]
    o.full_width_wgmma = 0 if narrow_wgmma else 1
    o.store_d = _lib.STORE_D[store_d]
    o.mode = _lib.MODES[mode]
    for name, v in (("splits", splits), ("blocks", blocks), ("avail_sms", avail_sms)):
        _lib.check_int(name, v, _lib.INT32)
    o.splits, o.blocks, o.avail_sms = splits, blocks, avail_sms
    o.reduction = _lib.REDUCTIONS[reduction]
    if tile is not None:
        if len(tile) != 3:
            raise ValueError(f"tile = {tile!r}: must be (BM, BN, BK)")
        for v in tile:
            _lib.check_int(f"tile = {tile!r}: each of BM, BN, BK", v, _lib.INT32)
        o.tile_m, o.tile_n, o.tile_k = tile
    _lib.check_int("max_workspace_bytes", max_workspace_bytes, _lib.INT64)
    if max_workspace_bytes < 0:
        raise ValueError(f"max_workspace_bytes = {max_workspace_bytes}: must be >= 0")
    o.max_workspace_bytes = max_workspace_bytes
    return o


def _plan_json(lib: "_lib.Library", args: Any, options: "_lib.Options",
               device: Optional[Union[str, os.PathLike]]) -> dict[str, Any]:
    """plan()'s and plan_grouped()'s last step: the plan on `device` (None: the current GPU)."""
    if device is not None and not isinstance(device, (str, os.PathLike)):
        raise TypeError(f"device: expected a preset's name or a profile's file, got "
                        f"{type(device).__name__}")
    return lib.plan_json(args, options, os.fspath(device) if device is not None else None)


def plan(m: int, n: int, k: int, *, dtype: Any = "fp16", out_dtype: Any = None,
         batch: int = 1, device: Optional[Union[str, os.PathLike]] = None, mode: str = "auto",
         splits: int = 0, blocks: int = 0, reduction: Optional[str] = None,
         tile: Optional[tuple[int, int, int]] = None, avail_sms: int = 0,
         max_workspace_bytes: int = 0, schedule: str = "auto", mainloop: Optional[str] = None,
         pingpong: Optional[bool] = None, narrow_wgmma: bool = True,
         store_d: Optional[str] = None) -> dict[str, Any]:
    """The plan streamk would run for a row-major (m x k) @ (k x n) -> row-major (m x n) GEMM
    with packed operands, as `streamk-plan --json` prints it: the decomposition, the tile, the
    workspace, "predicted_us", "reason" and every "candidates" entry the planner weighed.

    device: None for the current GPU, "h200", "h100", "a100" for a built-in model, or a device
    profile's file, a name ending in ".json" (streamk-bench --calibrate; no GPU needed). dtype and out_dtype: "fp16", "bf16", "fp32" or torch dtypes. schedule: "auto"
    (the planner's: blocks that wait on each other or run several tiles each take their work
    from a counter), "static" or
    "dynamic" (every plan's blocks take their work from a counter, planned for SMs held by other
    kernels; streamk::Options::schedule).
    mainloop, pingpong, narrow_wgmma, store_d: the kernel's own choices (streamk::Options; None:
    the planner's), recorded in the plan's "mainloop", "pingpong", "narrow_wgmma", "store_d".
    """
    lib = _lib.library()
    for name, v in (("m", m), ("n", n), ("k", k), ("batch", batch)):
        _lib.check_int(name, v)
    args = lib.new_args()
    args.m, args.n, args.k, args.batch = m, n, k, batch
    args.input = _dtype_code("dtype", dtype)
    args.output = args.input if out_dtype is None else _dtype_code("out_dtype", out_dtype)
    # Packed operands: A row-major (m x k), B as the transposed weight of a Linear (K-major),
    # D row-major. Planning reads no memory; any aligned address stands for them.
    fake = 1 << 16
    args.a, args.a_layout, args.lda = fake, _lib.ROW_MAJOR, k
    args.b, args.b_layout, args.ldb = fake, _lib.COL_MAJOR, k
    args.d, args.cd_layout, args.ldd = fake, _lib.ROW_MAJOR, n
    if batch > 1:
        for name, v in (("m * k", m * k), ("k * n", k * n), ("m * n", m * n)):
            _lib.check_int(name, v)
        args.stride_a, args.stride_b, args.stride_d = m * k, k * n, m * n
    options = _options(lib, mode, splits, blocks, reduction, tile, avail_sms, max_workspace_bytes,
                       schedule, mainloop, pingpong, narrow_wgmma, store_d)
    return _plan_json(lib, args, options, device)


def plan_grouped(rows: Sequence[int], n: int, k: int, *, dtype: Any = "fp16",
                 out_dtype: Any = None, device: Optional[Union[str, os.PathLike]] = None,
                 mode: str = "auto", splits: int = 0, blocks: int = 0,
                 reduction: Optional[str] = None, tile: Optional[tuple[int, int, int]] = None,
                 avail_sms: int = 0, max_workspace_bytes: int = 0, schedule: str = "auto",
                 mainloop: Optional[str] = None, pingpong: Optional[bool] = None,
                 narrow_wgmma: bool = True, store_d: Optional[str] = None,
                 device_ends: bool = False) -> dict[str, Any]:
    """The plan grouped_mm would run for groups of `rows[g]` rows each (a mixture-of-experts
    layer's tokens per expert) times their own k x n weights, as plan() gives a GEMM's: with
    "groups", "groups_with_rows" and "tiles_m" (the groups' own tile rows). device_ends: the
    plan grouped_mm runs with offs on the GPU, made for any routing of sum(rows) rows over the
    groups ("rows_bound" 1). Options as plan()."""
    lib = _lib.library()
    for name, v in (("n", n), ("k", k), ("n * k", n * k)):
        _lib.check_int(name, v)
    rows = list(rows)
    if not rows or any(not isinstance(r, int) or isinstance(r, bool) for r in rows):
        raise TypeError(f"rows = {rows!r}: must be a non-empty sequence of ints")
    ends, total = [], 0
    for g, r in enumerate(rows):
        total += r
        _lib.check_int(f"rows[{g}]", r)
        _lib.check_int(f"sum(rows[:{g + 1}])", total)
        ends.append(total)
    # Addresses planning never reads: packed operands as grouped_mm passes the transposed view
    # of [groups, n, k] weights, and with device_ends the ends (only their bound is planned for).
    fake = 1 << 16
    args = lib.new_grouped_args()
    args.groups, args.n, args.k = len(ends), n, k
    if device_ends:
        args.device_group_ends, args.max_rows = fake, total
    else:
        ends_array = (ctypes.c_int64 * len(ends))(*ends)
        args.group_ends = ends_array
    args.input = _dtype_code("dtype", dtype)
    args.output = args.input if out_dtype is None else _dtype_code("out_dtype", out_dtype)
    args.a, args.lda = fake, k
    args.b, args.b_layout, args.ldb, args.stride_b = fake, _lib.COL_MAJOR, k, n * k
    args.d, args.ldd = fake, n
    options = _options(lib, mode, splits, blocks, reduction, tile, avail_sms, max_workspace_bytes,
                       schedule, mainloop, pingpong, narrow_wgmma, store_d)
    return _plan_json(lib, args, options, device)


def use_device_profile(path: Optional[str], device: int = -1) -> None:
    """Plans every later call on CUDA device `device` (-1: the current one) with the device
    profile in file `path` (`streamk-bench --calibrate PATH` fits one to the GPU it runs on)
    instead of the built-in model; None goes back to the built-in model. plan(device=PATH) plans
    with a profile without a GPU."""
    if path is not None and not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path: expected a file name or None, got {type(path).__name__}")
    if not isinstance(device, int) or isinstance(device, bool):
        raise TypeError(f"device: expected an int, got {type(device).__name__}")
    _lib.library().use_device_profile(os.fspath(path) if path is not None else None, device)


def release_workspaces() -> None:
    """Frees the workspaces the C library keeps for itself (not those of mm, which come from
    torch's caching allocator)."""
    _lib.library().release_workspaces()


try:
    import torch  # noqa: F401
except ImportError:  # plan() works without torch; mm and addmm need it
    def _needs_torch(*args: Any, **kwargs: Any) -> Any:
        raise ImportError("streamk.mm, addmm and grouped_mm need PyTorch (pip install torch)")

    mm = addmm = grouped_mm = _needs_torch
else:
    from ._ops import addmm, grouped_mm, mm  # noqa: E402,F401
