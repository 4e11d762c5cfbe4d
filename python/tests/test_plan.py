"""streamk.plan and the C library through ctypes: no torch and no GPU needed."""

import pytest

import streamk


def test_version_is_the_librarys():
    assert streamk.version() == streamk.__version__


def test_plan_on_the_h200_model_lists_candidates():
    p = streamk.plan(3456, 5120, 8192, device="h200")
    assert p["device"] == "H200"
    assert (p["m"], p["n"], p["k"]) == (3456, 5120, 8192)
    assert p["mode"] in ("dp", "splitk", "streamk")
    assert p["predicted_us"] > 0 and p["reason"]
    chosen = [c for c in p["candidates"] if c["chosen"]]
    assert len(chosen) == 1, p["candidates"]
    feasible = [c["predicted_us"] for c in p["candidates"] if c["feasible"]]
    assert chosen[0]["predicted_us"] <= min(feasible) * 1.25


@pytest.mark.parametrize("mode", ["dp", "splitk", "streamk"])
def test_forced_modes(mode):
    p = streamk.plan(1536, 3072, 4096, device="h200", mode=mode, tile=(128, 256, 64))
    assert p["mode"] == mode
    if mode == "dp":
        # 144 tiles on 132 SMs: two rounds, whose tiles the blocks claim from a counter in the
        # workspace; static, no workspace.
        assert p["sk_blocks"] == 0 and p["schedule"] == "dynamic" and p["workspace_bytes"] > 0
        fixed = streamk.plan(1536, 3072, 4096, device="h200", mode=mode, tile=(128, 256, 64),
                             schedule="static")
        assert fixed["workspace_bytes"] == 0
    else:
        assert p["sk_blocks"] > 0 and p["workspace_bytes"] > 0


def test_split_count_and_tiles():
    p = streamk.plan(1536, 3072, 4096, device="h200", mode="splitk", splits=4,
                     tile=(128, 256, 64))
    assert p["sk_blocks"] == 4 * p["tiles"] and p["sk_regions"] == p["tiles"]


def test_workspace_cap_falls_back_and_refuses():
    free = streamk.plan(1536, 3072, 4096, device="h200", tile=(128, 256, 64))
    assert free["workspace_bytes"] > 0, free["mode"]
    capped = streamk.plan(1536, 3072, 4096, device="h200", tile=(128, 256, 64),
                          max_workspace_bytes=1024)
    assert capped["mode"] == "dp" and capped["workspace_bytes"] <= 1024
    assert "max_workspace_bytes" in capped["reason"]
    with pytest.raises(MemoryError, match="max_workspace_bytes = 1024"):
        streamk.plan(1536, 3072, 4096, device="h200", mode="splitk", splits=4,
                     max_workspace_bytes=1024)


def test_dynamic_schedule():
    p = streamk.plan(4096, 4096, 4096, device="h200", mode="dp", schedule="dynamic")
    assert p["schedule"] == "dynamic" and p["cluster_m"] == 1
    assert p["workspace_bytes"] > p["counter_offset"] >= 0  # even data-parallel: the counter
    # By default, data-parallel plans of several rounds take their tiles from a counter, and run
    # static within a workspace cap that leaves it out; those of one round are static.
    rounds = streamk.plan(4096, 4096, 4096, device="h200")
    assert (rounds["mode"], rounds["schedule"]) == ("dp", "dynamic") and rounds["tiles"] > 132
    assert rounds["workspace_bytes"] > 0
    capped = streamk.plan(4096, 4096, 4096, device="h200", max_workspace_bytes=256)
    assert (capped["mode"], capped["schedule"], capped["workspace_bytes"]) == ("dp", "static", 0)
    assert "counter" in capped["reason"]
    one = streamk.plan(512, 4096, 4096, device="h200")
    assert (one["mode"], one["schedule"]) == ("dp", "static") and one["tiles"] <= 132
    # By default, plans whose blocks wait on one another take their work from a counter.
    sk = streamk.plan(1536, 1536, 4096, device="h200", mode="streamk")
    assert sk["schedule"] == "dynamic" and sk["sk_blocks"] > 0
    fixed = streamk.plan(1536, 1536, 4096, device="h200", mode="streamk", schedule="static")
    assert fixed["schedule"] == "static" and fixed["sk_blocks"] == sk["sk_blocks"]
    with pytest.raises(ValueError, match="schedule = 'sometimes'"):
        streamk.plan(64, 64, 64, device="h200", schedule="sometimes")


def test_kernel_choices():
    p = streamk.plan(5120, 2560, 1024, device="h200")
    assert (p["mainloop"], p["pingpong"], p["narrow_wgmma"], p["store_d"]) == \
        ("sm90-tma", True, True, "tma")
    off = streamk.plan(5120, 2560, 1024, device="h200", pingpong=False, narrow_wgmma=False)
    assert (off["pingpong"], off["narrow_wgmma"]) == (False, False)
    assert streamk.plan(4096, 4096, 4096, device="a100")["mainloop"] == "sm80"
    assert streamk.plan(4096, 4096, 4096, device="h200", store_d="threads")["store_d"] == "threads"
    with pytest.raises(ValueError, match="store_d = rows-warp"):
        streamk.plan(4096, 4096, 4096, device="h200", out_dtype="fp32", store_d="rows-warp")
    with pytest.raises(ValueError, match="mainloop = sm80"):
        streamk.plan(4096, 4096, 4096, device="h200", mainloop="sm80")
    with pytest.raises(ValueError, match="mainloop = 'sm70'"):
        streamk.plan(64, 64, 64, device="h200", mainloop="sm70")


def test_dtypes():
    assert streamk.plan(512, 512, 512, device="h200", dtype="bf16", out_dtype="fp32")["m"] == 512
    with pytest.raises(ValueError, match="out_dtype"):
        streamk.plan(512, 512, 512, device="h200", out_dtype="fp8")


@pytest.mark.parametrize("kwargs,match", [
    (dict(m=0, n=128, k=128), "m = 0"),
    (dict(m=128, n=-1, k=128), "n = -1"),
    (dict(m=128, n=128, k=128, mode="fastest"), "mode = 'fastest'"),
    (dict(m=128, n=128, k=128, mode="dp", splits=4), "splits"),
    (dict(m=128, n=128, k=128, reduction="sum"), "reduction"),
    (dict(m=128, n=128, k=128, device="v100"), "v100"),
    (dict(m=128, n=128, k=128, tile=(128, 128)), "tile"),
])
def test_bad_input_names_the_argument(kwargs, match):
    with pytest.raises(ValueError, match=match):
        streamk.plan(device=kwargs.pop("device", "h200"), **kwargs)


def test_sizes_must_be_ints():
    with pytest.raises(TypeError, match="k = 1.5"):
        streamk.plan(128, 128, 1.5, device="h200")


@pytest.mark.parametrize("call,match", [
    (lambda: streamk.plan(2**64 + 4096, 4096, 4096, device="h200"), "m = 18446744073709555712"),
    (lambda: streamk.plan(64, 64, 64, device="h200", mode="splitk", splits=2**32 + 1),
     "splits = 4294967297"),
    (lambda: streamk.plan(64, 64, 64, device="h200", avail_sms=2**31), "avail_sms = 2147483648"),
    (lambda: streamk.plan(64, 64, 64, device="h200", tile=(2**32 + 128, 256, 64)), "tile"),
    (lambda: streamk.plan(64, 64, 64, device="h200", max_workspace_bytes=2**64 + 1),
     "max_workspace_bytes = 18446744073709551617"),
    (lambda: streamk.plan(2**40, 2**40, 2**40, device="h200", batch=2), "m \\* k"),
    (lambda: streamk.plan_grouped([2**64 + 100, 5], 64, 64, device="h200"), "rows\\[0\\]"),
    (lambda: streamk.plan_grouped([2**62, 2**62, 2**62], 64, 64, device="h200"),
     "sum\\(rows\\[:2\\]\\)"),
])
def test_ints_the_c_interface_cannot_hold_are_refused(call, match):
    # ctypes would wrap them silently: m = 2**64 + 4096 used to plan 4096 rows.
    with pytest.raises(ValueError, match=match):
        call()


def test_mm_without_torch_says_so():
    try:
        import torch  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="PyTorch"):
            streamk.mm(None, None)
    else:
        pytest.skip("torch is installed: test_torch.py covers mm")


def _profile(tmp_path, name="test-gpu", sms=66, extra=""):
    path = tmp_path / "profile.json"
    path.write_text(
        '{"format": "streamk-device-profile", "version": 1, "name": "%s", "sms": %d,'
        ' "occupancy": 1, "l2_bytes": 52428800, "mainloop": "sm90-tma", "configurations":'
        ' {"main": {"tile": [128, 256, 64], "cost": {"block_us": 2.5, "unit_us": 1.8,'
        ' "iter_us": 0.3, "epilogue_us": 1.0, "partial_us": 3.0, "peer_us": 0.5%s}}}}'
        % (name, sms, extra))
    return str(path)


def test_plan_with_a_device_profile(tmp_path):
    p = streamk.plan(4096, 4096, 4096, device=_profile(tmp_path))
    assert p["device"] == "test-gpu"
    import pathlib
    assert streamk.plan(64, 64, 64, device=pathlib.Path(_profile(tmp_path)))["device"] == "test-gpu"
    with pytest.raises(TypeError, match="device"):
        streamk.plan(64, 64, 64, device=3)
    assert p["tile"][:2] == [128, 256]
    assert 1 <= p["grid_blocks"] <= 66


def test_bad_device_profiles_name_the_key(tmp_path):
    with pytest.raises(ValueError, match="iter_ms"):
        streamk.plan(64, 64, 64, device=_profile(tmp_path, extra=', "iter_ms": 1'))
    with pytest.raises(ValueError, match="sms"):
        streamk.plan(64, 64, 64, device=_profile(tmp_path, sms=0))
    missing = str(tmp_path / "missing.json")
    with pytest.raises(FileNotFoundError, match="missing.json"):
        streamk.plan(64, 64, 64, device=missing)
    with pytest.raises(FileNotFoundError, match="missing.json"):
        streamk.use_device_profile(missing)
    with pytest.raises(TypeError, match="path"):
        streamk.use_device_profile(3)


def test_plan_grouped_covers_the_groups_own_tile_rows():
    rows = [300, 0, 129, 1, 4000]
    p = streamk.plan_grouped(rows, 2048, 7168, device="h200")
    assert p["groups"] == 5 and p["groups_with_rows"] == 4
    bm = p["tile"][0]
    assert p["tiles_m"] == sum((r + bm - 1) // bm for r in rows)
    assert p["m"] == sum(rows) and p["predicted_us"] > 0 and p["reason"]
    forced = streamk.plan_grouped(rows, 2048, 7168, device="h200", mode="splitk", splits=2,
                                  tile=(128, 128, 64))
    assert forced["mode"] == "splitk" and forced["tiles_m"] == 3 + 0 + 2 + 1 + 32


def test_plan_grouped_for_offs_on_the_gpu_holds_any_routing():
    rows = [300, 0, 129, 1, 4000]
    p = streamk.plan_grouped(rows, 2048, 7168, device="h200", device_ends=True)
    bm, total = p["tile"][0], sum(rows)
    assert p["rows_bound"] == 1 and p["m"] == total
    # The costliest split of the rows over the groups, and a tile row for the rows past the end.
    assert p["tiles_m"] == min(total, (total + 5 * (bm - 1)) // bm + 1)
    exact = streamk.plan_grouped(rows, 2048, 7168, device="h200")
    assert exact["rows_bound"] == 0 and exact["tiles_m"] < p["tiles_m"]


def test_plan_grouped_names_bad_arguments():
    with pytest.raises(ValueError, match="group_ends"):
        streamk.plan_grouped([5, -3], 64, 64, device="h200")
    with pytest.raises(ValueError, match="every group is empty"):
        streamk.plan_grouped([0, 0], 64, 64, device="h200")
    with pytest.raises(TypeError, match="rows"):
        streamk.plan_grouped([], 64, 64, device="h200")
