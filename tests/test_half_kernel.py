"""The compiled half-layout kernel (posenc._halves): numpy's formula bit for bit, in one pass, on any threads."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from posenc import _half_kernel
from posenc.angle_tables import cos_sin_table
from posenc.rotary import apply_rope

built = pytest.mark.skipif(not _half_kernel.COMPILED and os.environ.get("CI") != "true",
                           reason="posenc._halves was not built here (no C compiler when posenc was installed)")


@built
def test_the_kernel_is_built_where_the_suite_runs_in_ci():
    """setup.py marks the extension optional, so a broken build would only show up as a slower half layout."""
    assert _half_kernel.COMPILED


def formula(x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """The half layout written out in numpy: each product rounded, then the sum or difference."""
    half = x.shape[-1] // 2
    xa, xb = x[..., :half], x[..., half:]
    return np.concatenate([xa * cos - xb * sin, xb * cos + xa * sin], axis=-1)


def tables(positions, d: int, dtype):
    return tuple(np.ascontiguousarray(t, dtype=dtype) for t in cos_sin_table(positions, d))


@built
@given(leads=st.integers(1, 4), seq=st.integers(1, 40), half=st.integers(1, 70), offset=st.integers(0, 5000),
       dtype=st.sampled_from([np.float32, np.float64]), seed=st.integers(0, 1000))
def test_the_kernel_is_numpys_formula_bit_for_bit_also_in_place(leads, seq, half, offset, dtype, seed):
    x = np.random.default_rng(seed).standard_normal((leads, seq, 2 * half)).astype(dtype)
    cos, sin = tables(np.arange(seq) + offset, 2 * half, dtype)
    expected = formula(x, cos, sin)
    np.testing.assert_array_equal(_half_kernel.rotate_halves(x, cos, sin, np.empty_like(x)), expected)
    np.testing.assert_array_equal(_half_kernel.rotate_halves(x, cos, sin, x), expected)  # out=x: turned in place


@built
@pytest.mark.parametrize("threads", [2, 3, 7])
def test_spans_on_threads_start_at_their_own_table_row(threads, monkeypatch):
    """5 x 13 rows cut into spans that begin mid-sequence: each thread must pick up the table where its span is."""
    monkeypatch.setattr(_half_kernel, "SPAN_BYTES", 1)  # a span per thread even for this small array
    x = np.random.default_rng(3).standard_normal((5, 13, 16)).astype(np.float32)
    cos, sin = tables(np.arange(13) + 100, 16, np.float32)
    got = _half_kernel.rotate_halves(x, cos, sin, np.empty_like(x), threads=threads)
    np.testing.assert_array_equal(got, formula(x, cos, sin))


@built
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_numpy_and_torch_give_the_same_bits(dtype):
    x = np.random.default_rng(4).standard_normal((3, 2, 300, 64)).astype(dtype)
    from_torch = apply_rope(torch.from_numpy(x), positions=np.arange(300) + 17, layout="half")
    np.testing.assert_array_equal(from_torch.numpy(), apply_rope(x, positions=np.arange(300) + 17, layout="half"))


@built
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_the_kernel_agrees_with_torchs_passes_to_rounding(dtype, monkeypatch):
    """The passes fuse each cross term's multiply-add, the kernel rounds the product first: a unit in the last
    place apart at most, for values of size about 1."""
    x = torch.randn(2, 4, 1000, 128, dtype=dtype, generator=torch.Generator().manual_seed(5))
    kernel = apply_rope(x, layout="half")
    monkeypatch.setattr(_half_kernel, "COMPILED", False)
    passes = apply_rope(x, layout="half")
    assert not torch.equal(kernel, torch.zeros_like(kernel))
    torch.testing.assert_close(kernel, passes, rtol=0, atol=8 * torch.finfo(dtype).eps)


@built
def test_a_large_tensor_is_turned_on_torchs_threads_in_spans(monkeypatch):
    """A 64 MiB tensor on 2 torch threads is cut into 2 spans, one for the caller and one for a helper thread."""
    calls = []
    real = _half_kernel.turn_halves
    monkeypatch.setattr(_half_kernel, "turn_halves", lambda x, *rest: calls.append(len(x)) or real(x, *rest))
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        x = torch.ones(1, 32, 4096, 128)
        apply_rope(x, layout="half", out=torch.empty_like(x))
    finally:
        torch.set_num_threads(before)
    assert sorted(calls) == [0, 65536, 65536]  # the check of shapes and dtypes, then two spans of 65,536 rows


@built
@pytest.mark.parametrize(("change", "message"), [
    (lambda x, c, s, o: (x.astype(np.float16), c, s, o, 0), "2-D array of float32 or float64"),
    (lambda x, c, s, o: (x.ravel(), c, s, o, 0), "2-D array of float32 or float64"),
    (lambda x, c, s, o: (x, c.astype(np.float64), s, o, 0), "all of one dtype"),
    (lambda x, c, s, o: (x[:, :7].copy(), c, s, o[:, :7].copy(), 0), "d even"),
    (lambda x, c, s, o: (x, c[:, :3].copy(), s[:, :3].copy(), o, 0), "(seq, d/2)"),
    (lambda x, c, s, o: (x, c[:0], s[:0], o, 0), "seq >= 1"),
    (lambda x, c, s, o: (x, c, s, o[:3], 0), "(rows, d)"),
    (lambda x, c, s, o: (x, c, s, o, -1), "first >= 0"),
    (lambda x, c, s, o: (x[:, ::2], c[:, :2].copy(), s[:, :2].copy(), o[:, :4].copy(), 0), "C-contiguous"),
])
def test_the_kernel_refuses_what_it_cannot_turn_safely(change, message):
    x, out = np.zeros((4, 8), np.float32), np.zeros((4, 8), np.float32)
    cos, sin = tables(np.arange(2), 8, np.float32)
    with pytest.raises(ValueError, match=re.escape(message)):
        _half_kernel.turn_halves(*change(x, cos, sin, out))


@built
def test_rows_are_never_turned_into_a_copy_of_out_that_is_thrown_away():
    x = np.zeros((2, 3, 8), np.float32)
    cos, sin = tables(np.arange(3), 8, np.float32)
    with pytest.raises(ValueError, match="C-contiguous arrays of one shape"):
        _half_kernel.rotate_halves(x, cos, sin, np.zeros((2, 8, 3), np.float32).transpose(0, 2, 1))


@built
def test_the_kernel_will_not_write_into_a_read_only_array():
    x, cos, sin = np.zeros((4, 8), np.float32), *tables(np.arange(2), 8, np.float32)
    out = np.zeros_like(x)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        _half_kernel.turn_halves(x, cos, sin, out, 0)


@pytest.mark.venv
def test_without_a_c_compiler_the_package_installs_and_turns_with_its_passes(tmp_path):
    """The extension is optional (setup.py): with no working compiler (CC=false), pip still installs posenc,
    without posenc._halves, and the half layout runs numpy's passes to the same values."""
    root, package = Path(__file__).resolve().parent.parent, tmp_path / "package"
    shutil.copytree(root / "src", package / "src", ignore=shutil.ignore_patterns("*.so", "__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(root / name, package)
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", site, package],
                   env={**os.environ, "CC": "false"}, check=True, capture_output=True)
    assert not list((site / "posenc").glob("_halves*"))
    script = """
import numpy as np
from posenc import _half_kernel
from posenc.angle_tables import cos_sin_table
from posenc.rotary import apply_rope
x = np.random.default_rng(0).standard_normal((2, 5, 8))
c, s = cos_sin_table(np.arange(5), 8)
a, b = x[..., :4], x[..., 4:]
expected = np.concatenate([a * c - b * s, b * c + a * s], axis=-1)
print(_half_kernel.COMPILED, np.abs(apply_rope(x, layout="half") - expected).max())
"""
    run = subprocess.run([sys.executable, "-c", script], env={**os.environ, "PYTHONPATH": str(site)},
                         check=True, capture_output=True, text=True)
    compiled, deviation = run.stdout.split()
    assert compiled == "False" and float(deviation) < 1e-15
