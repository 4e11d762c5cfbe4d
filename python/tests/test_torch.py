"""streamk.mm and streamk.addmm from PyTorch on a GPU: results against torch.matmul on fresh
random inputs for every layout torch's strides produce, batches, opcheck, CUDA graph capture,
torch.compile and two streams. Skipped without torch or a CUDA GPU."""

import pytest

torch = pytest.importorskip("torch", reason="needs PyTorch (the GPU machine has it)")
if not torch.cuda.is_available():
    pytest.skip("needs a CUDA GPU", allow_module_level=True)

import streamk  # noqa: E402

DTYPES = [torch.float16, torch.bfloat16]


def rand(*shape, dtype=torch.float16):
    return torch.randn(*shape, device="cuda", dtype=torch.float32).to(dtype)


def check(got, a, b, c=None, alpha=1.0, beta=0.0):
    ref = torch.matmul(a.float(), b.float()) * alpha
    if c is not None:
        ref = ref + beta * c.float()
    err = (got.float() - ref).norm() / ref.norm().clamp_min(1e-6)
    assert torch.isfinite(got.float()).all(), "non-finite output"
    assert err < 1e-2, f"relative error {err:.3g} for a {tuple(a.shape)} {a.stride()}, " \
                       f"b {tuple(b.shape)} {b.stride()}"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("m,n,k", [(1, 4096, 4096), (16, 11008, 4096), (300, 200, 520),
                                   (1536, 1536, 4096), (257, 65, 7000), (4097, 513, 33),
                                   (128, 128, 65536)])
def test_mm_matches_matmul(dtype, m, n, k):
    a, b = rand(m, k, dtype=dtype), rand(k, n, dtype=dtype)
    out = streamk.mm(a, b)
    assert out.dtype == dtype and out.shape == (m, n) and out.is_contiguous()
    check(out, a, b)


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_layout_torch_strides_produce(dtype):
    m, n, k = 200, 184, 328
    a_row, b_row = rand(m, k, dtype=dtype), rand(k, n, dtype=dtype)
    a_col, b_col = rand(k, m, dtype=dtype).t(), rand(n, k, dtype=dtype).t()
    a_pad = rand(m, k + 24, dtype=dtype)[:, :k]  # a leading dimension past k
    b_odd = rand(k, n + 3, dtype=dtype)[:, :n]   # rows at odd element offsets
    a_strided = rand(m, 2 * k, dtype=dtype)[:, ::2]  # neither layout: copied
    for a in (a_row, a_col, a_pad, a_strided):
        for b in (b_row, b_col, b_odd):
            check(streamk.mm(a, b), a, b)


@pytest.mark.parametrize("dtype", DTYPES)
def test_batched_and_shared_operands(dtype):
    batch, m, n, k = 5, 96, 160, 256
    a, b = rand(batch, m, k, dtype=dtype), rand(batch, k, n, dtype=dtype)
    check(streamk.mm(a, b), a, b)
    w = rand(k, n, dtype=dtype)
    check(streamk.mm(a, w), a, w)                                    # B shared: 2-D
    check(streamk.mm(a, w.expand(batch, k, n)), a, w.expand(batch, k, n))  # stride 0
    x = rand(m, k, dtype=dtype)
    check(streamk.mm(x, b), x, b)                                    # A shared
    bt = rand(batch, n, k, dtype=dtype).transpose(1, 2)              # column-major entries
    check(streamk.mm(a, bt), a, bt)


@pytest.mark.parametrize("dtype", DTYPES)
def test_out_dtype_and_addmm(dtype):
    m, n, k = 333, 250, 1000
    a, b = rand(m, k, dtype=dtype), rand(k, n, dtype=dtype)
    out = streamk.mm(a, b, out_dtype=torch.float32)
    assert out.dtype == torch.float32
    check(out, a, b)
    bias = rand(n, dtype=dtype)
    check(streamk.addmm(bias, a, b, alpha=0.5, beta=2.0), a, b, bias, 0.5, 2.0)
    c = rand(m, n, dtype=torch.float32)
    got = streamk.addmm(c, a, b, beta=1.0)
    assert got.dtype == torch.float32
    check(got, a, b, c, 1.0, 1.0)


def test_bad_input_names_the_argument():
    a, b = rand(64, 32), rand(48, 16)
    with pytest.raises(ValueError, match="b: shape"):
        streamk.mm(a, b)
    with pytest.raises(TypeError, match="b: dtype"):
        streamk.mm(rand(64, 32), rand(32, 16, dtype=torch.bfloat16))
    with pytest.raises(TypeError, match="a: dtype"):
        streamk.mm(torch.zeros(4, 4, device="cuda"), rand(4, 4))
    with pytest.raises(ValueError, match="a: on cpu"):
        streamk.mm(torch.zeros(4, 4, dtype=torch.float16), torch.zeros(4, 4, dtype=torch.float16))
    with pytest.raises(ValueError, match="a: must be 2-D"):
        streamk.mm(rand(2, 2, 4, 4), rand(4, 4))
    with pytest.raises(ValueError, match="c: shape"):
        streamk.addmm(rand(7), rand(8, 8), rand(8, 8))


def test_opcheck():
    a, b = rand(64, 128), rand(128, 96)
    torch.library.opcheck(torch.ops.streamk.mm.default, (a, b))
    torch.library.opcheck(torch.ops.streamk.mm.default, (a, b), {"out_dtype": torch.float32})
    torch.library.opcheck(torch.ops.streamk.addmm.default, (rand(96), a, b), {"beta": 0.5})
    ar = a.clone().requires_grad_(True)
    br = b.clone().requires_grad_(True)
    torch.library.opcheck(torch.ops.streamk.mm.default, (ar, br))
    cr = rand(96).requires_grad_(True)
    torch.library.opcheck(torch.ops.streamk.addmm.default, (cr, ar, br, 0.5, 2.0))


def test_backward_matches_matmul():
    a = rand(96, 192).requires_grad_(True)
    b = rand(192, 80).requires_grad_(True)
    streamk.mm(a, b).float().square().sum().backward()
    ga, gb = a.grad.clone(), b.grad.clone()
    a.grad = b.grad = None
    torch.matmul(a, b).float().square().sum().backward()
    assert (ga.float() - a.grad.float()).norm() / a.grad.float().norm() < 2e-2
    assert (gb.float() - b.grad.float()).norm() / b.grad.float().norm() < 2e-2


def test_addmm_backward_matches_torch():
    c = rand(80).requires_grad_(True)
    a = rand(96, 192).requires_grad_(True)
    b = rand(192, 80).requires_grad_(True)
    streamk.addmm(c, a, b, alpha=0.5, beta=2.0).float().square().sum().backward()
    got = [t.grad.clone() for t in (c, a, b)]
    for t in (c, a, b):
        t.grad = None
    torch.addmm(c, a, b, alpha=0.5, beta=2.0).float().square().sum().backward()
    for g, t, name in zip(got, (c, a, b), "cab"):
        err = (g.float() - t.grad.float()).norm() / t.grad.float().norm()
        assert err < 2e-2, f"grad of {name}: relative error {err:.3g}"


def replays_correctly(a, b, **kw):
    """Captures streamk.mm(a, b, **kw) in a CUDA graph (after a warm-up on the capture stream),
    then replays it three times on fresh inputs written into a and b, checking each result."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        streamk.mm(a, b, **kw)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = streamk.mm(a, b, **kw)
    for _ in range(3):
        a.copy_(rand(*a.shape))
        b.copy_(rand(*b.shape))
        out.fill_(float("nan"))
        g.replay()
        torch.cuda.synchronize()
        check(out, a, b)


def test_cuda_graph_capture_and_replay():
    m, n, k = 1536, 1536, 4096  # a Stream-K plan: its workspace is used inside the graph
    replays_correctly(rand(m, k), rand(k, n))


def test_torch_compile_of_a_model():
    class Linear(torch.nn.Module):
        def __init__(self, k, n):
            super().__init__()
            self.weight = torch.nn.Parameter(rand(n, k) / k ** 0.5)

        def forward(self, x):
            return streamk.mm(x, self.weight.t())

    model = torch.nn.Sequential(Linear(512, 1024), torch.nn.GELU(), Linear(1024, 256)).cuda()
    compiled = torch.compile(model, fullgraph=True)
    x = rand(64, 512)
    expected = model(x)
    got = compiled(x)
    assert (got.float() - expected.float()).norm() / expected.float().norm() < 1e-2
    x2 = rand(200, 512)  # another shape: recompiles or runs dynamic
    assert compiled(x2).shape == (200, 256)


def test_two_streams():
    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
    pairs = [(rand(1536, 4096), rand(4096, 1536)) for _ in range(2)]
    outs = [None, None]
    torch.cuda.synchronize()
    for _ in range(5):
        for i, s in enumerate((s1, s2)):
            with torch.cuda.stream(s):
                outs[i] = streamk.mm(*pairs[i])
    torch.cuda.synchronize()
    for (a, b), out in zip(pairs, outs):
        check(out, a, b)


@pytest.mark.parametrize("m,n,k", [(1536, 1536, 4096), (512, 4096, 4096), (64, 4096, 11008),
                                   (257, 65, 7000)])
def test_dynamic_schedule_and_available_sms(m, n, k):
    """schedule="dynamic" and avail_sms reach the library (the plans differ) and stay correct, in
    the forward and backward passes and inside a captured CUDA graph."""
    a, b = rand(m, k), rand(k, n)
    for kw in ({"schedule": "dynamic"}, {"avail_sms": 100}, {"schedule": "dynamic", "avail_sms": 66}):
        out = streamk.mm(a, b, **kw)
        check(out, a, b)
        c = rand(n)
        check(streamk.addmm(c, a, b, beta=0.5, **kw), a, b, c, 1.0, 0.5)
    plan = streamk.plan(m, n, k, schedule="dynamic")
    assert plan["schedule"] == "dynamic"
    ar, br = a.clone().requires_grad_(True), b.clone().requires_grad_(True)
    # The loss scaled so that its gradients stay within fp16: unscaled, a's gradient for 64 x 4096
    # x 11008 randn operands reaches 8.8e4 (torch.matmul's fp16 result overflows as well).
    scale = k ** -0.5
    out = streamk.mm(ar, br, schedule="dynamic", avail_sms=100)
    out.float().mul(scale).square().sum().backward()
    a2, b2 = a.clone().requires_grad_(True), b.clone().requires_grad_(True)
    torch.matmul(a2.float(), b2.float()).mul(scale).square().sum().backward()
    for got, want, name in ((ar.grad, a2.grad, "a"), (br.grad, b2.grad, "b")):
        err = (got.float() - want.float()).norm() / want.float().norm()
        assert err < 2e-2, f"grad of {name}: relative error {err:.3g}"
    replays_correctly(a, b, schedule="dynamic")  # the counter returns to zero after each launch


def test_schedule_arguments_name_the_rule():
    a, b = rand(64, 32), rand(32, 16)
    with pytest.raises(ValueError, match="schedule = 'fast'"):
        streamk.mm(a, b, schedule="fast")
    with pytest.raises(ValueError, match="avail_sms = -1"):
        streamk.addmm(rand(16), a, b, avail_sms=-1)
    torch.library.opcheck(torch.ops.streamk.mm.default, (a, b), {"schedule": "dynamic"})
    torch.library.opcheck(torch.ops.streamk.addmm.default, (rand(16), a, b),
                          {"schedule": "dynamic", "avail_sms": 66})


def grouped_reference(a, b, ends):
    out = torch.zeros(a.shape[0], b.shape[2], device="cuda", dtype=torch.float32)
    begin = 0
    for g, end in enumerate(ends):
        if end > begin:
            out[begin:end] = a[begin:end].float() @ b[g].float()
        begin = end
    return out


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("rows,n,k", [([5, 0, 300, 1, 77], 256, 512),
                                      ([0, 0, 1000], 4096, 1024),
                                      ([3] * 64, 768, 2048),
                                      ([128, 256, 0, 129], 200, 136)])
def test_grouped_mm_matches_each_groups_matmul(dtype, rows, n, k):
    total = sum(rows)
    ends = torch.tensor(rows).cumsum(0).to(torch.int32)
    a = rand(total + 5, k, dtype=dtype)  # rows past the last group's end: zero in the output
    weights = rand(len(rows), n, k, dtype=dtype)  # [groups, n, k], as nn.Linear keeps them
    for b in (weights.transpose(1, 2), rand(len(rows), k, n, dtype=dtype)):
        for offs in (ends, ends.cuda().to(torch.int64)):
            out = streamk.grouped_mm(a, b, offs)
            assert out.shape == (total + 5, n) and out.dtype == dtype
            ref = grouped_reference(a, b, ends.tolist())
            err = (out.float() - ref).norm() / ref.norm().clamp_min(1e-6)
            assert err < 1e-2, f"relative error {err:.3g}, rows {rows}, b strides {b.stride()}"
            assert (out[total:] == 0).all()
    out32 = streamk.grouped_mm(a, weights.transpose(1, 2), ends, out_dtype=torch.float32)
    assert out32.dtype == torch.float32


def test_grouped_mm_names_bad_arguments():
    a, b = rand(10, 64), rand(2, 64, 32)
    ends = torch.tensor([4, 10], dtype=torch.int32)
    with pytest.raises(ValueError, match="b: shape"):
        streamk.grouped_mm(a, rand(2, 32, 32), ends)
    with pytest.raises(ValueError, match="offs: 3 entries"):
        streamk.grouped_mm(a, b, torch.tensor([1, 2, 3], dtype=torch.int32))
    with pytest.raises(ValueError, match="group_ends"):
        streamk.grouped_mm(a, b, torch.tensor([6, 4], dtype=torch.int32))
    with pytest.raises(ValueError, match="the last group ends at row 11"):
        streamk.grouped_mm(a, b, torch.tensor([4, 11], dtype=torch.int32))
    with pytest.raises(TypeError, match="offs"):
        streamk.grouped_mm(a, b, torch.tensor([4.0, 10.0]))


def test_grouped_mm_under_compile():
    a, w = rand(300, 256), rand(4, 128, 256)
    ends = torch.tensor([100, 100, 250, 300], dtype=torch.int32)
    f = torch.compile(lambda x, y, o: streamk.grouped_mm(x, y.transpose(1, 2), o), fullgraph=True)
    out = f(a, w, ends)
    ref = grouped_reference(a, w.transpose(1, 2), ends.tolist())
    assert ((out.float() - ref).norm() / ref.norm()) < 1e-2


def test_grouped_mm_graph_replays_each_steps_routing():
    """offs on the GPU: captured once, replayed with a new routing written into offs each step."""
    rows, n, k = 2000, 384, 512
    a, w = rand(rows, k), rand(6, n, k)
    offs = torch.tensor([100, 100, 900, 950, 1500, 2000], dtype=torch.int32, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        streamk.grouped_mm(a, w.transpose(1, 2), offs)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = streamk.grouped_mm(a, w.transpose(1, 2), offs)
    for ends in ([2000] * 6, [1, 2, 3, 4, 5, 1200], [0, 0, 0, 0, 0, 0], [300, 600, 900, 1200, 1500, 1800]):
        offs.copy_(torch.tensor(ends, dtype=torch.int32))
        a.copy_(rand(rows, k))
        g.replay()
        torch.cuda.synchronize()
        ref = grouped_reference(a, w.transpose(1, 2), ends)
        err = (out.float() - ref).norm() / ref.norm().clamp_min(1e-6)
        assert err < 1e-2 or ends[-1] == 0, f"relative error {err:.3g} for ends {ends}"
        assert (out[ends[-1]:] == 0).all(), f"rows past {ends[-1]} not zero"
