"""Chapter 8, *Serving RoPE*: its claims under many inputs (the KV cache, left padding,
converting a checkpoint between the two layouts, integers in low precision)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from posenc.book.claims import ch08 as claims
from posenc.precision import angles_in_precision
from posenc.rotary import apply_rope, interleaved_to_half_rows

even_d = st.integers(1, 32).map(lambda h: 2 * h)
seed = st.integers(0, 10_000)


@given(n=st.integers(1, 20), d=even_d, seed=seed)
def test_decoding_with_a_kv_cache_gives_the_scores_of_recomputing_everything(n, d, seed):
    assert claims.kv_cache_matches_recompute(n, d, seed).holds


@given(n_real=st.integers(1, 12), n_pad=st.integers(0, 12), d=even_d, seed=seed)
def test_left_padding_with_positions_from_the_mask_changes_no_score(n_real, n_pad, d, seed):
    assert claims.left_padding_with_mask_positions(n_real, n_pad, d, seed).holds


def test_meta_to_hugging_face_row_permutation_matches_the_conversion_scripts_reshape():
    # Hugging Face's convert_llama_weights_to_hf: w.view(heads, d/2, 2, in).transpose(1, 2).reshape(heads*d, in)
    heads, head_dim, d_in = 3, 8, 5
    w = torch.arange(heads * head_dim * d_in, dtype=torch.float64).reshape(heads * head_dim, d_in)
    converted = w.view(heads, head_dim // 2, 2, d_in).transpose(1, 2).reshape(heads * head_dim, d_in)
    torch.testing.assert_close(w[torch.from_numpy(interleaved_to_half_rows(heads, head_dim))], converted)


@given(heads=st.integers(1, 6), head_dim=st.integers(1, 12).map(lambda h: 2 * h), seed=seed)
def test_permuting_w_q_and_w_k_rows_makes_half_rope_give_interleaved_scores(heads, head_dim, seed):
    assert claims.checkpoint_conversion(heads, head_dim, d_model=16, n=6, seed=seed).holds


def test_half_rope_without_the_permutation_gives_other_scores():
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 6, 16))
    assert np.max(np.abs(apply_rope(q, layout="half") @ apply_rope(k, layout="half").T
                         - apply_rope(q) @ apply_rope(k).T)) > 0.1


@pytest.mark.parametrize("dtype, last_exact", [("bfloat16", 256), ("float16", 2048)])
def test_half_precision_formats_hold_integers_only_up_to_two_to_the_significand_bits(dtype, last_exact):
    assert claims.integers_exact_up_to(dtype).holds
    rounded = angles_in_precision([last_exact, last_exact + 1], 2, 10_000.0, dtype)[:, 0]
    assert rounded[0] == last_exact and rounded[1] != last_exact + 1
