"""torch.ops.streamk.mm and torch.ops.streamk.addmm: streamk's GEMM as PyTorch operators.

Each maps the strides torch hands it to the library's layouts (row- or column-major with any
leading dimension, a batch stride, stride 0 for an operand the batch shares), runs on torch's
current stream and device, and takes its workspace from torch's caching allocator, one per
(device, stream), zeroed once: every launch leaves the library's flags zero again, so a workspace
serves every later call on its stream, in captured CUDA graphs too.
"""

from __future__ import annotations

import ctypes
from typing import Optional

import torch

from . import _lib

_DTYPE = {torch.float16: _lib.F16, torch.bfloat16: _lib.BF16, torch.float32: _lib.F32}

# (device index, stream handle) -> uint8 tensor
_workspaces: dict[tuple[int, int], torch.Tensor] = {}


def _matrix_layout(name: str, t: torch.Tensor) -> tuple[torch.Tensor, int, int]:
    """(tensor, layout, leading dimension) of the last two dims of t, copying only where its
    strides fit neither layout."""
    rows, cols = t.shape[-2], t.shape[-1]
    s_row, s_col = t.stride(-2), t.stride(-1)
    if s_col == 1 or cols == 1:
        ld = s_row if rows > 1 else cols
        if ld >= cols and ld > 0:
            return t, _lib.ROW_MAJOR, ld
    if s_row == 1 or rows == 1:
        ld = s_col if cols > 1 else rows
        if ld >= rows and ld > 0:
            return t, _lib.COL_MAJOR, ld
    c = t.contiguous()
    return c, _lib.ROW_MAJOR, cols


def _batch_stride(t: torch.Tensor, batch: int) -> int:
    if t.dim() == 2 or batch == 1:
        return 0
    return t.stride(0)


def _check(name: str, t: torch.Tensor, dtypes: tuple[torch.dtype, ...]) -> None:
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{name}: must be a torch.Tensor, got {type(t).__name__}")
    if t.dim() not in (2, 3):
        raise ValueError(f"{name}: must be 2-D or 3-D (batched), got shape {tuple(t.shape)}")
    if t.dtype not in dtypes:
        names = ", ".join(str(d).replace("torch.", "") for d in dtypes)
        raise TypeError(f"{name}: dtype {str(t.dtype).replace('torch.', '')}, must be {names}")


def _out_shape(a: torch.Tensor, b: torch.Tensor) -> tuple[int, ...]:
    m, n = a.shape[-2], b.shape[-1]
    if a.dim() == 3 or b.dim() == 3:
        batch = a.shape[0] if a.dim() == 3 else b.shape[0]
        return (batch, m, n)
    return (m, n)


def _validate(a: torch.Tensor, b: torch.Tensor) -> None:
    _check("a", a, (torch.float16, torch.bfloat16))
    _check("b", b, (torch.float16, torch.bfloat16))
    if a.dtype != b.dtype:
        raise TypeError(f"b: dtype {b.dtype} differs from a's {a.dtype}")
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"b: shape {tuple(b.shape)} does not fit a's {tuple(a.shape)} "
                         f"(a's columns {a.shape[-1]} must equal b's rows {b.shape[-2]})")
    if a.dim() == 3 and b.dim() == 3 and a.shape[0] != b.shape[0]:
        raise ValueError(f"b: batch {b.shape[0]} differs from a's {a.shape[0]}")
    if a.device != b.device:
        raise ValueError(f"b: on {b.device}, a on {a.device}")
    if a.device.type != "cuda" and a.device.type != "meta":
        raise ValueError(f"a: on {a.device}, must be on a CUDA device")


def _check_schedule(schedule: str, avail_sms: int) -> None:
    _lib.schedule_code(schedule)
    if not isinstance(avail_sms, int) or not 0 <= avail_sms <= _lib.INT32[1]:
        raise ValueError(f"avail_sms = {avail_sms!r}: must be an int >= 0 (0: every SM)")


def _run(a: torch.Tensor, b: torch.Tensor, c: Optional[torch.Tensor], out: torch.Tensor,
         alpha: float, beta: float, schedule: str, avail_sms: int) -> None:
    lib = _lib.library()
    batch = out.shape[0] if out.dim() == 3 else 1
    m, n, k = a.shape[-2], b.shape[-1], a.shape[-1]
    if m == 0 or n == 0:
        return
    if k == 0:
        out.copy_(c.expand_as(out) * beta if c is not None and beta != 0 else torch.zeros_like(out))
        return
    a, a_layout, lda = _matrix_layout("a", a)
    b, b_layout, ldb = _matrix_layout("b", b)
    args = lib.new_args()
    args.m, args.n, args.k, args.batch = m, n, k, batch
    args.input, args.output = _DTYPE[a.dtype], _DTYPE[out.dtype]
    args.a, args.a_layout, args.lda, args.stride_a = a.data_ptr(), a_layout, lda, _batch_stride(a, batch)
    args.b, args.b_layout, args.ldb, args.stride_b = b.data_ptr(), b_layout, ldb, _batch_stride(b, batch)
    args.d, args.cd_layout, args.ldd = out.data_ptr(), _lib.ROW_MAJOR, n
    args.stride_d = m * n if batch > 1 else 0
    args.alpha, args.beta = alpha, beta
    if c is not None and beta != 0:
        cc = c.expand(out.shape)
        if cc.stride(-1) != 1 or (m > 1 and cc.stride(-2) < n):
            cc = cc.contiguous()
        args.c = cc.data_ptr()
        args.ldc = cc.stride(-2) if m > 1 else n
        args.stride_c = cc.stride(0) if cc.dim() == 3 else 0
    options = lib.new_options()
    options.schedule = _lib.schedule_code(schedule)
    options.avail_sms = avail_sms
    index = out.device.index
    if index != torch.cuda.current_device():  # the library plans and runs on the current one
        with torch.cuda.device(index):
            _launch(lib, args, options, out.device)
    else:
        _launch(lib, args, options, out.device)


def _workspace(device: torch.device, stream: int, needed: int) -> tuple[int, int]:
    """(address, bytes) of the workspace of (device, stream), grown to at least `needed` bytes;
    (0, 0) when none is needed."""
    if needed <= 0:
        return 0, 0
    key = (device.index, stream)
    ws = _workspaces.get(key)
    if ws is None or ws.numel() < needed:
        ws = torch.zeros(max(needed, 1 << 20), dtype=torch.uint8, device=device)
        _workspaces[key] = ws
    return ws.data_ptr(), ws.numel()


def _launch(lib: "_lib.Library", args: "_lib.GemmArgs", options: "_lib.Options",
            device: torch.device) -> None:
    stream = torch._C._cuda_getCurrentRawStream(device.index)
    workspace, size = _workspace(device, stream, lib.workspace_size(args, options))
    lib.gemm(args, options, workspace, size, stream)


# The operators, defined with the dispatcher's own registration (torch.library.Library) rather
# than torch.library.custom_op, whose Python wrapper costs more per call than the GEMM's host
# work: a kernel for CUDA tensors (and for CPU ones, to say what is wrong), a fake kernel for
# torch.compile and meta tensors, and autograd.
_definitions = torch.library.Library("streamk", "DEF")
_definitions.define("mm(Tensor a, Tensor b, ScalarType? out_dtype=None, str schedule=\"auto\", "
                    "int avail_sms=0) -> Tensor")
_definitions.define("addmm(Tensor c, Tensor a, Tensor b, float alpha=1.0, float beta=1.0, "
                    "str schedule=\"auto\", int avail_sms=0) -> Tensor")


def _mm_check(a: torch.Tensor, b: torch.Tensor, out_dtype: Optional[torch.dtype]) -> torch.dtype:
    """The output's dtype, after checking the arguments (the kernel's and the fake's checks)."""
    _validate(a, b)
    dtype = a.dtype if out_dtype is None else out_dtype
    if dtype not in _DTYPE:
        raise TypeError(f"out_dtype: {dtype}, must be float16, bfloat16 or float32")
    return dtype


def _mm_kernel(a: torch.Tensor, b: torch.Tensor, out_dtype: Optional[torch.dtype] = None,
               schedule: str = "auto", avail_sms: int = 0) -> torch.Tensor:
    dtype = _mm_check(a, b, out_dtype)
    _check_schedule(schedule, avail_sms)
    out = torch.empty(_out_shape(a, b), dtype=dtype, device=a.device)
    _run(a, b, None, out, 1.0, 0.0, schedule, avail_sms)
    return out


def _mm_fake(a: torch.Tensor, b: torch.Tensor, out_dtype: Optional[torch.dtype] = None,
             schedule: str = "auto", avail_sms: int = 0) -> torch.Tensor:
    dtype = _mm_check(a, b, out_dtype)
    _check_schedule(schedule, avail_sms)
    return a.new_empty(_out_shape(a, b), dtype=dtype)


def _addmm_check(c: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> tuple[int, ...]:
    _validate(a, b)
    if not isinstance(c, torch.Tensor):
        raise TypeError(f"c: must be a torch.Tensor, got {type(c).__name__}")
    if c.dtype not in _DTYPE:
        raise TypeError(f"c: dtype {c.dtype}, must be float16, bfloat16 or float32")
    shape = _out_shape(a, b)
    try:
        torch.broadcast_shapes(c.shape, shape)
    except RuntimeError:
        raise ValueError(f"c: shape {tuple(c.shape)} does not broadcast to {shape}") from None
    return shape


def _addmm_kernel(c: torch.Tensor, a: torch.Tensor, b: torch.Tensor, alpha: float = 1.0,
                  beta: float = 1.0, schedule: str = "auto", avail_sms: int = 0) -> torch.Tensor:
    shape = _addmm_check(c, a, b)
    _check_schedule(schedule, avail_sms)
    out = torch.empty(shape, dtype=c.dtype, device=a.device)
    _run(a, b, c, out, float(alpha), float(beta), schedule, avail_sms)
    return out


def _addmm_fake(c: torch.Tensor, a: torch.Tensor, b: torch.Tensor, alpha: float = 1.0,
                beta: float = 1.0, schedule: str = "auto", avail_sms: int = 0) -> torch.Tensor:
    shape = _addmm_check(c, a, b)
    _check_schedule(schedule, avail_sms)
    return a.new_empty(shape, dtype=c.dtype)


for _key in ("CUDA", "CPU"):  # CPU: to raise the error that names the argument
    _definitions.impl("mm", _mm_kernel, _key)
    _definitions.impl("addmm", _addmm_kernel, _key)
torch.library.register_fake("streamk::mm", _mm_fake, lib=_definitions)
torch.library.register_fake("streamk::addmm", _addmm_fake, lib=_definitions)


def _mm_setup(ctx, inputs, output) -> None:
    a, b, _, schedule, avail_sms = inputs
    ctx.save_for_backward(a, b)
    ctx.schedule, ctx.avail_sms = schedule, avail_sms


def _product_grads(ctx, a: torch.Tensor, b: torch.Tensor, g: torch.Tensor, need_a: bool,
                   need_b: bool) -> tuple[Optional[torch.Tensor], Optional[torch.Tensor]]:
    """The gradients of a @ b for the output's gradient g (in a's dtype), on the forward's
    schedule and SMs; an operand the batch shared (2-D) gets the sum over the batch."""
    grad_a = grad_b = None
    kw = {"schedule": ctx.schedule, "avail_sms": ctx.avail_sms}
    if need_a:
        grad_a = mm(g, b.transpose(-1, -2), **kw)
        if a.dim() == 2 and grad_a.dim() == 3:
            grad_a = grad_a.sum(0)
    if need_b:
        grad_b = mm(a.transpose(-1, -2), g, **kw)
        if b.dim() == 2 and grad_b.dim() == 3:
            grad_b = grad_b.sum(0)
    return grad_a, grad_b


def _mm_backward(ctx, grad):
    a, b = ctx.saved_tensors
    grad_a, grad_b = _product_grads(ctx, a, b, grad.to(a.dtype), ctx.needs_input_grad[0],
                                    ctx.needs_input_grad[1])
    return grad_a, grad_b, None, None, None


def _addmm_setup(ctx, inputs, output) -> None:
    c, a, b, alpha, beta, schedule, avail_sms = inputs
    ctx.save_for_backward(a, b)
    ctx.c_shape, ctx.c_dtype, ctx.alpha, ctx.beta = c.shape, c.dtype, alpha, beta
    ctx.schedule, ctx.avail_sms = schedule, avail_sms


def _addmm_backward(ctx, grad):
    a, b = ctx.saved_tensors
    grad_c = grad_a = grad_b = None
    if ctx.needs_input_grad[0]:
        grad_c = grad * ctx.beta
        while grad_c.dim() > len(ctx.c_shape):
            grad_c = grad_c.sum(0)
        for i, size in enumerate(ctx.c_shape):
            if size == 1 and grad_c.shape[i] != 1:
                grad_c = grad_c.sum(i, keepdim=True)
        grad_c = grad_c.to(ctx.c_dtype)
    if ctx.needs_input_grad[1] or ctx.needs_input_grad[2]:
        grad_a, grad_b = _product_grads(ctx, a, b, (grad * ctx.alpha).to(a.dtype),
                                        ctx.needs_input_grad[1], ctx.needs_input_grad[2])
    return grad_c, grad_a, grad_b, None, None, None, None


# grouped_mm: the contiguous mixture-of-experts layout (streamk::grouped_gemm), as
# torch._grouped_mm takes it for a 2-D a and a 3-D b.
_definitions.define("grouped_mm(Tensor a, Tensor b, Tensor offs, ScalarType? out_dtype=None) "
                    "-> Tensor")


def _grouped_check(a: torch.Tensor, b: torch.Tensor, offs: torch.Tensor,
                   out_dtype: Optional[torch.dtype]) -> torch.dtype:
    for name, t in (("a", a), ("b", b)):
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{name}: must be a torch.Tensor, got {type(t).__name__}")
        if t.dtype not in (torch.float16, torch.bfloat16):
            raise TypeError(f"{name}: dtype {t.dtype}, must be float16 or bfloat16")
    if a.dim() != 2:
        raise ValueError(f"a: must be 2-D (the groups' rows stacked), got shape {tuple(a.shape)}")
    if b.dim() != 3:
        raise ValueError(f"b: must be 3-D (groups x k x n), got shape {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"b: dtype {b.dtype} differs from a's {a.dtype}")
    if b.shape[0] < 1:
        raise ValueError("b: no groups (its first dimension is 0)")
    if a.shape[1] != b.shape[1]:
        raise ValueError(f"b: shape {tuple(b.shape)} does not fit a's {tuple(a.shape)} "
                         f"(a's columns {a.shape[1]} must equal b's rows {b.shape[1]})")
    if not isinstance(offs, torch.Tensor) or offs.dim() != 1 or offs.dtype not in (
            torch.int32, torch.int64):
        raise TypeError("offs: must be a 1-D int32 or int64 tensor of the groups' row ends")
    if offs.shape[0] != b.shape[0]:
        raise ValueError(f"offs: {offs.shape[0]} entries, b has {b.shape[0]} groups")
    if a.device != b.device:
        raise ValueError(f"b: on {b.device}, a on {a.device}")
    dtype = a.dtype if out_dtype is None else out_dtype
    if dtype not in _DTYPE:
        raise TypeError(f"out_dtype: {dtype}, must be float16, bfloat16 or float32")
    return dtype


def _grouped_kernel(a: torch.Tensor, b: torch.Tensor, offs: torch.Tensor,
                    out_dtype: Optional[torch.dtype] = None) -> torch.Tensor:
    dtype = _grouped_check(a, b, offs, out_dtype)
    if a.device.type != "cuda":
        raise ValueError(f"a: on {a.device}, must be on a CUDA device")
    on_device = offs.device.type == "cuda"
    # offs on the GPU stays there: the kernel reads it when it runs (planned for a's rows), so
    # nothing waits for the host and a captured graph replays each step's routing; it writes
    # every row, zeros past offs[-1]. On the host: planned for its rows exactly, and the rows
    # past offs[-1] zeroed here.
    out = torch.empty((a.shape[0], b.shape[2]), dtype=dtype, device=a.device)
    ends = [] if on_device else [int(x) for x in offs.tolist()]
    if a.shape[0] == 0 or out.shape[1] == 0 or (not on_device and ends[-1] == 0):
        return out.zero_() if out.numel() else out
    if not on_device and ends[-1] > a.shape[0]:
        raise ValueError(f"offs: the last group ends at row {ends[-1]}, a has {a.shape[0]}")
    if a.shape[1] == 0:
        return out.zero_()
    lib = _lib.library()
    if a.stride(1) != 1 or a.stride(0) % 8 != 0 or a.data_ptr() % 16 != 0:
        a = a.contiguous()
    # b's groups: each k x n, row-major (n contiguous) or column-major (k contiguous, as the
    # transposed view of [groups, n, k] weights is).
    if b.stride(2) == 1 and b.stride(1) >= b.shape[2]:
        b_layout, ldb = _lib.ROW_MAJOR, b.stride(1)
    elif b.stride(1) == 1 and b.stride(2) >= b.shape[1]:
        b_layout, ldb = _lib.COL_MAJOR, b.stride(2)
    else:
        b = b.contiguous()
        b_layout, ldb = _lib.ROW_MAJOR, b.shape[2]
    args = lib.new_grouped_args()
    groups = b.shape[0]
    if on_device:
        device_ends = offs.to(device=a.device, dtype=torch.int32).contiguous()
        args.groups, args.device_group_ends, args.max_rows = groups, device_ends.data_ptr(), \
            a.shape[0]
    else:
        ends_array = (ctypes.c_int64 * groups)(*ends)
        args.groups, args.group_ends = groups, ends_array
    args.n, args.k = out.shape[1], a.shape[1]
    args.input, args.output = _DTYPE[a.dtype], _DTYPE[dtype]
    args.a, args.lda = a.data_ptr(), a.stride(0) if a.shape[0] > 1 else a.shape[1]
    args.b, args.b_layout, args.ldb = b.data_ptr(), b_layout, ldb
    args.stride_b = b.stride(0) if groups > 1 else 0
    args.d, args.ldd = out.data_ptr(), out.shape[1]
    options = lib.new_options()
    index = out.device.index
    with torch.cuda.device(index):
        stream = torch._C._cuda_getCurrentRawStream(index)
        workspace, size = _workspace(out.device, stream,
                                     lib.grouped_workspace_size(args, options))
        lib.grouped_gemm(args, options, workspace, size, stream)
    if not on_device and ends[-1] < out.shape[0]:
        out[ends[-1]:].zero_()
    return out


def _grouped_fake(a: torch.Tensor, b: torch.Tensor, offs: torch.Tensor,
                  out_dtype: Optional[torch.dtype] = None) -> torch.Tensor:
    dtype = _grouped_check(a, b, offs, out_dtype)
    return a.new_empty((a.shape[0], b.shape[2]), dtype=dtype)


for _key in ("CUDA", "CPU"):
    _definitions.impl("grouped_mm", _grouped_kernel, _key)
torch.library.register_fake("streamk::grouped_mm", _grouped_fake, lib=_definitions)

torch.library.register_autograd("streamk::mm", _mm_backward, setup_context=_mm_setup,
                                lib=_definitions)
torch.library.register_autograd("streamk::addmm", _addmm_backward, setup_context=_addmm_setup,
                                lib=_definitions)

_mm_op = torch.ops.streamk.mm.default
_addmm_op = torch.ops.streamk.addmm.default


def mm(a: torch.Tensor, b: torch.Tensor, *, out_dtype: Optional[torch.dtype] = None,
       schedule: str = "auto", avail_sms: int = 0) -> torch.Tensor:
    """a @ b for fp16 or bf16 a (m x k, or batch x m x k) and b (k x n, or batch x k x n) on one
    CUDA device, with fp32 accumulation; out_dtype fp16, bf16 or fp32 (default a's).
    schedule "auto" (the planner's: Stream-K and split-K blocks, which wait on each other, take
    their work from a counter), "static", or "dynamic": every plan's blocks take their work from
    a counter, so a GEMM beside kernels that hold some SMs (a collective on another stream) is not
    held back by them;
    avail_sms: plan for that many SMs (0: all; streamk::Options). The backward pass runs its
    GEMMs the same way. torch.ops.streamk.mm(a, b, out_dtype, schedule, avail_sms)."""
    return _mm_op(a, b, out_dtype, schedule, avail_sms)


_grouped_mm_op = torch.ops.streamk.grouped_mm.default


def grouped_mm(a: torch.Tensor, b: torch.Tensor, offs: torch.Tensor, *,
               out_dtype: Optional[torch.dtype] = None) -> torch.Tensor:
    """Grouped GEMM of a mixture-of-experts layer: a (rows x k, the tokens sorted by expert)
    times b (groups x k x n, one matrix per expert; the transposed view of [groups, n, k]
    weights reads them as they are), group g taking rows [offs[g - 1], offs[g]) of a
    (offs[-1] = 0; int32 or int64, as torch._grouped_mm's offs), into the same rows of the
    output (rows x n; rows past offs[-1] are zero). One Stream-K plan over every group's tiles
    (streamk::grouped_gemm). offs on the GPU is read by the kernel when it runs (no
    synchronization; CUDA graphs replay each step's routing; planned for all of a's rows); offs
    on the host is planned for exactly. No autograd yet.
    torch.ops.streamk.grouped_mm(a, b, offs, out_dtype)."""
    return _grouped_mm_op(a, b, offs, out_dtype)


def addmm(c: torch.Tensor, a: torch.Tensor, b: torch.Tensor, *, alpha: float = 1.0,
          beta: float = 1.0, schedule: str = "auto", avail_sms: int = 0) -> torch.Tensor:
    """beta * c + alpha * (a @ b); c broadcasts to the output's shape (a bias row, say) and
    sets the output's dtype (fp16, bf16 or fp32); schedule and avail_sms as for mm.
    torch.ops.streamk.addmm(c, a, b, alpha, beta, schedule, avail_sms)."""
    return _addmm_op(c, a, b, float(alpha), float(beta), schedule, avail_sms)
