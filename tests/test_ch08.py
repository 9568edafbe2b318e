"""Chapter 8, *Serving RoPE*: its claims under many inputs (the KV cache, left padding,
converting a checkpoint between the two layouts, integers in low precision)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from transformers import Qwen2Config
from transformers.models.qwen2.modeling_qwen2 import Qwen2Attention, Qwen2RotaryEmbedding

from posenc.book.claims import ch08 as claims
from posenc.precision import angles_in_precision, round_to
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


@given(kv_heads=st.integers(1, 3), group=st.integers(1, 3), head_dim=st.integers(1, 12).map(lambda h: 2 * h),
       bias=st.booleans(), seed=seed)
def test_permuting_w_q_and_w_k_rows_and_biases_makes_half_rope_give_interleaved_scores(kv_heads, group, head_dim,
                                                                                        bias, seed):
    assert claims.checkpoint_conversion(kv_heads * group, head_dim, d_model=16, n=6, seed=seed, n_kv_heads=kv_heads,
                                        bias=bias).holds


def qwen2_attention_weights(x, w_q, b_q, w_k, b_k, heads: int, kv_heads: int, head_dim: int) -> np.ndarray:
    """Hugging Face's Qwen2 attention layer (half layout, q/k/v biases, grouped-query heads): its causal
    attention weights, shape (heads, n, n), for tokens ``x`` (n, d_model) and the given q and k projections."""
    config = Qwen2Config(hidden_size=x.shape[1], num_attention_heads=heads, num_key_value_heads=kv_heads,
                         head_dim=head_dim, rope_parameters={"rope_type": "default", "rope_theta": 10_000.0})
    config._attn_implementation = "eager"
    layer = Qwen2Attention(config, layer_idx=0).double()
    n = x.shape[0]
    with torch.no_grad():
        for linear, w, b in ((layer.q_proj, w_q, b_q), (layer.k_proj, w_k, b_k)):
            linear.weight.copy_(torch.from_numpy(w))
            linear.bias.copy_(torch.from_numpy(b))
        hidden = torch.from_numpy(x)[None]
        cos_sin = Qwen2RotaryEmbedding(config)(hidden, torch.arange(n)[None])
        mask = torch.full((n, n), float("-inf"), dtype=torch.float64).triu(1)[None, None]
        return layer(hidden, cos_sin, mask)[1][0].numpy()


def interleaved_attention_weights(x, w_q, b_q, w_k, b_k, heads: int, kv_heads: int, head_dim: int) -> np.ndarray:
    """Causal softmax of interleaved RoPE scores (Meta's layout), query head h reading key head h // group."""
    n = x.shape[0]
    q = (x @ w_q.T + b_q).reshape(n, heads, head_dim).transpose(1, 0, 2)
    k = (x @ w_k.T + b_k).reshape(n, kv_heads, head_dim).transpose(1, 0, 2)
    rotated_q, rotated_k = apply_rope(q), np.repeat(apply_rope(k), heads // kv_heads, axis=0)
    s = rotated_q @ rotated_k.transpose(0, 2, 1) / np.sqrt(head_dim)
    s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
    weights = np.exp(s - s.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)


def test_qwen2_attention_with_biases_and_grouped_heads_on_permuted_weights_gives_the_interleaved_weights():
    heads, kv_heads, head_dim, d_model, n = 4, 2, 16, 32, 9
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, d_model))
    w_q, w_k = rng.standard_normal((heads * head_dim, d_model)), rng.standard_normal((kv_heads * head_dim, d_model))
    b_q, b_k = rng.standard_normal(heads * head_dim), rng.standard_normal(kv_heads * head_dim)
    q_rows, k_rows = interleaved_to_half_rows(heads, head_dim), interleaved_to_half_rows(kv_heads, head_dim)
    shape = (heads, kv_heads, head_dim)
    expected = interleaved_attention_weights(x, w_q, b_q, w_k, b_k, *shape)
    converted = qwen2_attention_weights(x, w_q[q_rows], b_q[q_rows], w_k[k_rows], b_k[k_rows], *shape)
    np.testing.assert_allclose(converted, expected, atol=1e-5)  # transformers computes cos and sin in float32
    biases_left = qwen2_attention_weights(x, w_q[q_rows], b_q, w_k[k_rows], b_k, *shape)
    assert np.abs(biases_left - expected).max() > 0.01


@given(n_real=st.integers(1, 12), n_pad=st.integers(0, 12))
def test_the_next_token_sees_its_prompt_behind_it_and_mixed_conventions_move_it_n_pad_ahead(n_real, n_pad):
    offsets = claims.next_token_offsets(n_real, n_pad)
    np.testing.assert_array_equal(offsets["correct"], [i - n_real for i in range(n_real)])  # key minus query < 0
    np.testing.assert_array_equal(offsets["mixed"], offsets["correct"] + n_pad)


def test_the_chapters_padded_prompt_shows_offsets_minus_two_to_two_instead_of_minus_five_to_minus_one():
    offsets = claims.next_token_offsets(n_real=5, n_pad=3)
    assert list(offsets["correct"]) == [-5, -4, -3, -2, -1] and list(offsets["mixed"]) == [-2, -1, 0, 1, 2]


@given(n_real=st.integers(1, 12), n_pad=st.integers(0, 12), d=even_d, seed=seed)
def test_mixed_positions_give_the_rope_scores_of_the_mixed_offsets(n_real, n_pad, d, seed):
    assert claims.mixed_positions_see_offsets(n_real, n_pad, d, seed).holds


def test_mixed_positions_claim_fails_with_query_minus_key_offsets(monkeypatch):
    key_minus_query = claims.next_token_offsets
    monkeypatch.setattr(claims, "next_token_offsets", lambda *a: {k: -v for k, v in key_minus_query(*a).items()})
    assert not claims.mixed_positions_see_offsets(n_real=5, n_pad=3).holds


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


@given(n=st.integers(1, 64), half_d=st.integers(1, 32), seed=st.integers(0, 1000))
def test_the_half_layout_of_reordered_coordinates_is_the_reordered_interleaved_rotation(n, half_d, seed):
    assert claims.layouts_are_one_rotation(n, 2 * half_d, seed=seed).holds


@given(n_real=st.integers(1, 12), n_pad=st.integers(0, 12), d=even_d,
       pad_position=st.one_of(st.integers(-10, 10), st.integers(0, 10**6)), seed=seed)
def test_a_pads_position_reaches_no_real_tokens_scores_weights_or_output(n_real, n_pad, d, pad_position, seed):
    assert claims.pads_reach_no_real_token(n_real, n_pad, d, pad_position, seed).holds


def test_cosines_of_float32_angles_stored_in_bfloat16_cost_half_a_step_and_start_above_16_bit_angles():
    assert claims.cosines_stored_in_bfloat16().holds
    assert claims.cosines_stored_in_bfloat16(d=64, base=10_000.0, context=4096).holds


def test_torch_bfloat16_cosines_of_float32_angles_err_by_about_half_a_step_more_than_float32s():
    """An oracle outside posenc.precision: torch computes the angles and cosines in float32 and casts to bfloat16."""
    d, base = 128, 500_000.0
    positions, theta = np.arange(1, 8192.0), base ** (-np.arange(0, d, 2) / d)
    exact = torch.from_numpy(np.cos(np.outer(positions, theta)))
    cosines = torch.cos(torch.outer(torch.from_numpy(positions).float(), torch.from_numpy(theta).float()))
    excess = (cosines.bfloat16().double() - exact).abs() - (cosines.double() - exact).abs()
    assert 0.9 * 2.0**-9 < excess.max() <= 2.0**-9  # half the bfloat16 step of 2^-8 between 1/2 and 1


def test_the_stored_cosines_claim_fails_if_bfloat16_were_float16(monkeypatch):
    monkeypatch.setattr(claims, "round_to", lambda x, dtype: round_to(x, "float16" if dtype == "bfloat16" else dtype))
    assert not claims.cosines_stored_in_bfloat16().holds
