"""ctypes bindings to streamk's C interface (include/streamk/streamk_c.h) in libstreamk_c.

The library is looked for, in order: the file named by STREAMK_LIBRARY (a path, for a build of
your own), the package's own lib/ folder (where `pip install ./python` puts the one it built or
found), then the system's library path.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import pathlib
from typing import Any, Optional

# streamk_status
OK = 0
INVALID_ARGUMENT = 3
RESOURCE_EXHAUSTED = 8
NOT_FOUND = 5
FAILED_PRECONDITION = 9

F16, BF16, F32 = 0, 1, 2
ROW_MAJOR, COL_MAJOR = 0, 1
MODES = {"auto": 0, "dp": 1, "splitk": 2, "streamk": 3}
REDUCTIONS = {None: -1, "deterministic": 0, "atomic": 1, "separate": 2}
SCHEDULES = {"auto": -1, "static": 0, "dynamic": 1}
MAINLOOPS = {None: 0, "sm80": 1, "sm90-cpasync": 2, "sm90-tma": 3}
TOGGLES = {None: 0, True: 1, False: 2}
STORE_D = {None: 0, "threads": 1, "tma": 2, "rows": 3, "rows-warp": 4}
DTYPES = {"fp16": F16, "float16": F16, "bf16": BF16, "bfloat16": BF16, "fp32": F32, "float32": F32}


# The ranges of the C interface's integer fields. ctypes wraps a value outside them silently (m =
# 2**64 + 4096 planned 4096 rows), so every int from the caller is checked first (check_int).
INT32 = (-2**31, 2**31 - 1)
INT64 = (-2**63, 2**63 - 1)


def check_int(name: str, value: Any, bounds: tuple[int, int] = INT64) -> None:
    """TypeError unless `value` is an int (not a bool); ValueError naming it where the C field it
    goes to cannot hold it."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} = {value!r}: must be an int")
    if not bounds[0] <= value <= bounds[1]:
        raise ValueError(f"{name} = {value}: must be in [{bounds[0]}, {bounds[1]}]")


def schedule_code(schedule: str) -> int:
    """streamk_schedule's value for `schedule` ("auto", "static" or "dynamic"); ValueError
    otherwise."""
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule = {schedule!r}: must be auto, static or dynamic")
    return SCHEDULES[schedule]


class GemmArgs(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("m", ctypes.c_int64), ("n", ctypes.c_int64), ("k", ctypes.c_int64),
        ("batch", ctypes.c_int64),
        ("input", ctypes.c_int), ("output", ctypes.c_int),
        ("a", ctypes.c_void_p), ("a_layout", ctypes.c_int),
        ("lda", ctypes.c_int64), ("stride_a", ctypes.c_int64),
        ("b", ctypes.c_void_p), ("b_layout", ctypes.c_int),
        ("ldb", ctypes.c_int64), ("stride_b", ctypes.c_int64),
        ("c", ctypes.c_void_p), ("ldc", ctypes.c_int64), ("stride_c", ctypes.c_int64),
        ("d", ctypes.c_void_p), ("ldd", ctypes.c_int64), ("stride_d", ctypes.c_int64),
        ("cd_layout", ctypes.c_int),
        ("alpha", ctypes.c_float), ("beta", ctypes.c_float),
    ]


class Options(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("mode", ctypes.c_int),
        ("splits", ctypes.c_int), ("blocks", ctypes.c_int), ("sk_tiles", ctypes.c_int),
        ("reduction", ctypes.c_int), ("reduction_slices", ctypes.c_int),
        ("avail_sms", ctypes.c_int),
        ("tile_m", ctypes.c_int), ("tile_n", ctypes.c_int), ("tile_k", ctypes.c_int),
        ("max_workspace_bytes", ctypes.c_size_t),
        ("schedule", ctypes.c_int),
        ("mainloop", ctypes.c_int), ("pingpong", ctypes.c_int),
        ("full_width_wgmma", ctypes.c_int), ("store_d", ctypes.c_int),
    ]


class GroupedGemmArgs(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("groups", ctypes.c_int64), ("group_ends", ctypes.POINTER(ctypes.c_int64)),
        ("n", ctypes.c_int64), ("k", ctypes.c_int64),
        ("input", ctypes.c_int), ("output", ctypes.c_int),
        ("a", ctypes.c_void_p), ("lda", ctypes.c_int64),
        ("b", ctypes.c_void_p), ("b_layout", ctypes.c_int),
        ("ldb", ctypes.c_int64), ("stride_b", ctypes.c_int64),
        ("c", ctypes.c_void_p), ("ldc", ctypes.c_int64),
        ("d", ctypes.c_void_p), ("ldd", ctypes.c_int64),
        ("alpha", ctypes.c_float), ("beta", ctypes.c_float),
        ("device_group_ends", ctypes.c_void_p), ("max_rows", ctypes.c_int64),
    ]


def _candidates() -> list[str]:
    found = []
    env = os.environ.get("STREAMK_LIBRARY")
    if env:
        found.append(env)
    here = pathlib.Path(__file__).resolve().parent / "lib"
    found += [str(p) for p in sorted(here.glob("libstreamk_c.so*"))]
    system = ctypes.util.find_library("streamk_c")
    if system:
        found.append(system)
    return found


class Library:
    """The loaded C library, its functions typed."""

    def __init__(self) -> None:
        errors = []
        self.path = None
        for path in _candidates():
            try:
                self.dll = ctypes.CDLL(path)
                self.path = path
                break
            except OSError as e:
                errors.append(f"{path}: {e}")
        if self.path is None:
            raise ImportError(
                "streamk: cannot load libstreamk_c (set STREAMK_LIBRARY to its path, or "
                "reinstall with `pip install ./python` after building the library)"
                + ("; tried " + "; ".join(errors) if errors else ""))
        d = self.dll
        args_p, opts_p = ctypes.POINTER(GemmArgs), ctypes.POINTER(Options)
        d.streamk_gemm_args_init.argtypes = [args_p]
        d.streamk_gemm_args_init.restype = None
        d.streamk_options_init.argtypes = [opts_p]
        d.streamk_options_init.restype = None
        d.streamk_gemm.argtypes = [args_p, opts_p, ctypes.c_void_p]
        d.streamk_gemm.restype = ctypes.c_int
        d.streamk_gemm_with_workspace.argtypes = [args_p, opts_p, ctypes.c_void_p,
                                                  ctypes.c_size_t, ctypes.c_void_p]
        d.streamk_gemm_with_workspace.restype = ctypes.c_int
        d.streamk_workspace_size.argtypes = [args_p, opts_p, ctypes.POINTER(ctypes.c_size_t)]
        d.streamk_workspace_size.restype = ctypes.c_int
        d.streamk_plan_json.argtypes = [args_p, opts_p, ctypes.c_char_p, ctypes.c_char_p,
                                        ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]
        d.streamk_plan_json.restype = ctypes.c_int
        d.streamk_release_workspaces.argtypes = []
        d.streamk_release_workspaces.restype = ctypes.c_int
        d.streamk_use_device_profile.argtypes = [ctypes.c_char_p, ctypes.c_int]
        d.streamk_use_device_profile.restype = ctypes.c_int
        grouped_p = ctypes.POINTER(GroupedGemmArgs)
        d.streamk_grouped_gemm_args_init.argtypes = [grouped_p]
        d.streamk_grouped_gemm_args_init.restype = None
        d.streamk_grouped_gemm_with_workspace.argtypes = [grouped_p, opts_p, ctypes.c_void_p,
                                                          ctypes.c_size_t, ctypes.c_void_p]
        d.streamk_grouped_gemm_with_workspace.restype = ctypes.c_int
        d.streamk_grouped_workspace_size.argtypes = [grouped_p, opts_p,
                                                     ctypes.POINTER(ctypes.c_size_t)]
        d.streamk_grouped_workspace_size.restype = ctypes.c_int
        d.streamk_grouped_plan_json.argtypes = [grouped_p, opts_p, ctypes.c_char_p,
                                                ctypes.c_char_p, ctypes.c_size_t,
                                                ctypes.POINTER(ctypes.c_size_t)]
        d.streamk_grouped_plan_json.restype = ctypes.c_int
        d.streamk_version.argtypes = []
        d.streamk_version.restype = ctypes.c_char_p
        d.streamk_last_error.argtypes = []
        d.streamk_last_error.restype = ctypes.c_char_p

    def new_args(self) -> GemmArgs:
        a = GemmArgs()
        self.dll.streamk_gemm_args_init(ctypes.byref(a))
        return a

    def new_options(self) -> Options:
        o = Options()
        self.dll.streamk_options_init(ctypes.byref(o))
        return o

    def new_grouped_args(self) -> GroupedGemmArgs:
        a = GroupedGemmArgs()
        self.dll.streamk_grouped_gemm_args_init(ctypes.byref(a))
        return a

    def grouped_workspace_size(self, args: GroupedGemmArgs, options: Options) -> int:
        size = ctypes.c_size_t(0)
        self.check(self.dll.streamk_grouped_workspace_size(
            ctypes.byref(args), ctypes.byref(options), ctypes.byref(size)), "streamk.grouped_mm")
        return size.value

    def grouped_gemm(self, args: GroupedGemmArgs, options: Options, workspace: int,
                     workspace_bytes: int, stream: int) -> None:
        self.check(self.dll.streamk_grouped_gemm_with_workspace(
            ctypes.byref(args), ctypes.byref(options), ctypes.c_void_p(workspace),
            ctypes.c_size_t(workspace_bytes), ctypes.c_void_p(stream)), "streamk.grouped_mm")

    def check(self, status: int, what: str) -> None:
        if status == OK:
            return
        message = self.dll.streamk_last_error().decode()
        if status == INVALID_ARGUMENT:
            raise ValueError(f"{what}: {message}")
        if status == RESOURCE_EXHAUSTED:
            raise MemoryError(f"{what}: {message}")
        if status == NOT_FOUND:
            raise FileNotFoundError(f"{what}: {message}")
        raise RuntimeError(f"{what}: {message}")

    def version(self) -> str:
        return self.dll.streamk_version().decode()

    def workspace_size(self, args: GemmArgs, options: Options) -> int:
        size = ctypes.c_size_t(0)
        self.check(self.dll.streamk_workspace_size(ctypes.byref(args), ctypes.byref(options),
                                                   ctypes.byref(size)), "streamk")
        return size.value

    def gemm(self, args: GemmArgs, options: Options, workspace: int, workspace_bytes: int,
             stream: int) -> None:
        self.check(self.dll.streamk_gemm_with_workspace(
            ctypes.byref(args), ctypes.byref(options), ctypes.c_void_p(workspace),
            ctypes.c_size_t(workspace_bytes), ctypes.c_void_p(stream)), "streamk")

    def plan_json(self, args: Any, options: Options, device: Optional[str]) -> dict[str, Any]:
        """A GemmArgs' plan, or a GroupedGemmArgs' (streamk_grouped_plan_json)."""
        fn, what = ((self.dll.streamk_grouped_plan_json, "streamk.plan_grouped")
                    if isinstance(args, GroupedGemmArgs) else
                    (self.dll.streamk_plan_json, "streamk.plan"))
        dev = device.encode() if device is not None else None
        needed = ctypes.c_size_t(0)
        self.check(fn(ctypes.byref(args), ctypes.byref(options), dev, None, 0,
                      ctypes.byref(needed)), what)
        buf = ctypes.create_string_buffer(needed.value)
        self.check(fn(ctypes.byref(args), ctypes.byref(options), dev, buf, needed.value, None),
                   what)
        return json.loads(buf.value.decode())

    def release_workspaces(self) -> None:
        self.check(self.dll.streamk_release_workspaces(), "streamk.release_workspaces")

    def use_device_profile(self, path: Optional[str], device: int) -> None:
        self.check(self.dll.streamk_use_device_profile(
            path.encode() if path is not None else None, device), "streamk.use_device_profile")


_library: Optional[Library] = None


def library() -> Library:
    global _library
    if _library is None:
        _library = Library()
    return _library
