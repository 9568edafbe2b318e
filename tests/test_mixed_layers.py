"""Stacks of mixed layers: which layers are the odd ones out, Llama 4's NoPE temperature, and the masks of
sliding-window and chunked attention, each against a second way of writing it."""

import math

import numpy as np
import torch
from hypothesis import given
from hypothesis import strategies as st

from posenc.attention import causal_mask
from posenc.mixed_layers import chunk_mask, every_nth_layer, nope_temperature, window_mask


@given(n_layers=st.integers(1, 100), n=st.integers(1, 12))
def test_every_nth_layer_marks_layers_n_minus_one_2n_minus_one_and_so_on(n_layers, n):
    marked = every_nth_layer(n_layers, n)
    assert marked.shape == (n_layers,) and marked.dtype == bool
    assert set(np.flatnonzero(marked)) == set(range(n - 1, n_layers, n))


@given(k=st.integers(0, 2000), floor_scale=st.integers(2, 10_000), attn_scale=st.floats(0.0, 1.0))
def test_the_temperature_is_flat_on_each_plateau_of_floor_scale_positions(k, floor_scale, attn_scale):
    first, last = max(k * floor_scale - 1, 0), (k + 1) * floor_scale - 2  # (m + 1) // floor_scale == k
    tau = nope_temperature([first, last], floor_scale, attn_scale)
    np.testing.assert_allclose(tau, 1 + attn_scale * math.log(1 + k), rtol=1e-15)


@given(positions=st.lists(st.integers(0, 10**7), min_size=1, max_size=20))
def test_the_temperature_is_metas_reference_formula_and_never_falls(positions):
    m = torch.tensor(positions, dtype=torch.float64)
    meta = torch.log(torch.floor((m + 1.0) / 8192) + 1.0) * 0.1 + 1.0  # Llama 4's reference code, in float64
    tau = nope_temperature(positions)
    np.testing.assert_allclose(tau, meta.numpy(), rtol=1e-15)
    order = np.argsort(positions, kind="stable")
    assert np.all(np.diff(tau[order]) >= 0)


@given(n=st.integers(0, 40), window=st.integers(1, 50))
def test_a_window_mask_is_the_causal_mask_cut_to_a_band(n, window):
    mask = window_mask(n, window)
    m, k = np.indices((n, n))
    np.testing.assert_array_equal(mask, causal_mask(n) & (m - k < window))
    np.testing.assert_array_equal(mask.sum(axis=1), np.minimum(np.arange(n) + 1, window))


@given(n=st.integers(0, 40), chunk=st.integers(1, 50))
def test_a_chunk_mask_is_causal_within_blocks_of_chunk_positions(n, chunk):
    mask = chunk_mask(n, chunk)
    for m in range(n):
        start = m - m % chunk
        assert list(np.flatnonzero(mask[m])) == list(range(start, m + 1))


def test_masks_as_long_as_the_input_are_the_causal_mask():
    np.testing.assert_array_equal(window_mask(9, 9), causal_mask(9))
    np.testing.assert_array_equal(chunk_mask(9, 20), causal_mask(9))
    np.testing.assert_array_equal(chunk_mask(5, 1), np.eye(5, dtype=bool))
