"""RoPE: the public contract of rope_matrix and apply_rope, in both layouts and kinds (the composition, norm and
complex-number identities are checked on the pages of chapters 4, 5 and 7)."""

import inspect

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from posenc.geometry import rotation_2d
from posenc.rotary import (
    _rotate_pairs,
    apply_rope,
    half_to_interleaved,
    interleaved_to_half,
    rope_matrix,
)
from posenc.sinusoidal import frequencies

even_d = st.integers(1, 32).map(lambda h: 2 * h)


def test_rope_matrix_matches_the_public_contract():
    d, m = 6, 3
    theta = frequencies(d)
    expected = np.zeros((d, d))
    for j in range(d // 2):
        expected[2 * j : 2 * j + 2, 2 * j : 2 * j + 2] = rotation_2d(m * theta[j])
    np.testing.assert_allclose(rope_matrix(m, d), expected)
    # counter-clockwise: e_0 turns toward e_1
    assert rope_matrix(1, 2) @ np.array([1.0, 0.0]) == pytest.approx([np.cos(1), np.sin(1)])


@given(seq=st.integers(1, 12), d=even_d, offset=st.integers(-100, 10_000), seed=st.integers(0, 1000))
def test_apply_rope_is_theta_m_applied_to_each_row(seq, d, offset, seed):
    x = np.random.default_rng(seed).standard_normal((seq, d))
    positions = offset + np.arange(seq)
    expected = np.stack([rope_matrix(p, d) @ row for p, row in zip(positions, x, strict=True)])
    np.testing.assert_allclose(apply_rope(x, positions), expected, atol=1e-9)


@given(m=st.integers(0, 5000), n=st.integers(0, 5000), d=even_d, seed=st.integers(0, 1000))
def test_sliding_query_and_key_together_leaves_their_score_unchanged(m, n, d, seed):
    """(Theta_{m+s} q)^T (Theta_{n+s} k) is the same for every shift s: the score sees n - m alone."""
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    shifts = np.arange(0, 3000, 97)
    scores = np.einsum("sd,sd->s", apply_rope(np.tile(q, (shifts.size, 1)), m + shifts),
                       apply_rope(np.tile(k, (shifts.size, 1)), n + shifts))
    assert np.ptp(scores) <= 1e-12 * (1 + m + n + 3000) * d  # round-off of angles up to 8,000 radians


@given(shape=st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 10), even_d),
       seed=st.integers(0, 1000))
def test_layouts_agree_up_to_the_permutation(shape, seed):
    x = np.random.default_rng(seed).standard_normal(shape)
    p = interleaved_to_half(shape[-1])
    np.testing.assert_allclose(apply_rope(x[..., p], layout="half"), apply_rope(x)[..., p], atol=1e-12)
    np.testing.assert_array_equal(p[half_to_interleaved(shape[-1])], np.arange(shape[-1]))


def test_interleaved_to_half_is_the_documented_index_array():
    np.testing.assert_array_equal(interleaved_to_half(8), [0, 2, 4, 6, 1, 3, 5, 7])
    np.testing.assert_array_equal(half_to_interleaved(8), [0, 4, 1, 5, 2, 6, 3, 7])


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64])
def test_torch_gives_numpys_numbers_and_keeps_kind_shape_and_dtype(layout, dtype):
    x = torch.randn(2, 3, 5, 8, generator=torch.Generator().manual_seed(0)).to(dtype)
    positions = 4000 + torch.arange(5)  # a KV cache's offset, given as a tensor
    out = apply_rope(x, positions, layout=layout)
    assert isinstance(out, torch.Tensor) and out.shape == x.shape and out.dtype == dtype
    reference = apply_rope(x.double().numpy(), positions.numpy(), layout=layout)
    tol = {torch.float64: 1e-12, torch.float32: 1e-5, torch.float16: 1e-2, torch.bfloat16: 5e-2}[dtype]
    np.testing.assert_allclose(out.double().numpy(), reference, atol=tol)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_numpy_keeps_shape_and_dtype(dtype):
    x = np.random.default_rng(0).standard_normal((4, 3, 6)).astype(dtype)
    out = apply_rope(x, layout="half")
    assert out.shape == x.shape and out.dtype == dtype
    assert apply_rope(x).dtype == dtype


def test_torch_rope_supports_autograd_in_both_layouts():
    for layout in ("interleaved", "half"):
        x = torch.randn(4, 6, dtype=torch.float64, requires_grad=True)
        apply_rope(x, layout=layout).pow(2).sum().backward()
        # rotation preserves the norm, so d/dx ||R x||^2 = 2x
        torch.testing.assert_close(x.grad, 2 * x.detach())


def test_float_positions_are_accepted():
    x = np.ones((2, 2))
    np.testing.assert_allclose(apply_rope(x, positions=[0.5, 1.5])[0], rotation_2d(0.5) @ [1.0, 1.0])


@pytest.mark.parametrize("kind", ["numpy", "torch"])
@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_out_receives_the_same_result_also_in_place(kind, layout, dtype):
    x = np.random.default_rng(5).standard_normal((2, 6, 8)).astype(dtype)
    as_kind = torch.from_numpy if kind == "torch" else np.array
    expected = np.asarray(apply_rope(as_kind(x.copy()), positions=np.arange(6) + 3, layout=layout))
    for make_out in (lambda a: as_kind(np.zeros_like(a)), lambda a: a):  # a fresh buffer, then x itself
        source = as_kind(x.copy())
        out = make_out(source)
        returned = apply_rope(source, positions=np.arange(6) + 3, layout=layout, out=out)
        assert returned is out
        np.testing.assert_array_equal(np.asarray(out), expected)


@pytest.mark.parametrize("shape", [(2, 0, 8), (0, 5, 8)])
@pytest.mark.parametrize("layout", ["interleaved", "half"])
def test_an_empty_batch_or_sequence_is_returned_empty(shape, layout):
    assert apply_rope(torch.zeros(shape), layout=layout).shape == shape
    assert apply_rope(np.zeros(shape), layout=layout).shape == shape


def test_the_numpy_rotation_that_chapter_four_shows_is_short_enough_to_read_in_full():
    assert len(inspect.getsource(_rotate_pairs).splitlines()) <= 15
