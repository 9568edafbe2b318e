"""Chapter 8's claims: KV cache, padding, layouts for checkpoints, precision of angles, long-term decay."""

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from posenc import claims
from posenc.angle_tables import rotation_angles
from posenc.decay import long_term_decay_bound, long_term_decay_octaves, random_walk_level, rope_partial_sums
from posenc.decoding import cached_decoding_scores, positions_from_mask
from posenc.precision import angles_in_precision, round_to
from posenc.rotary import apply_rope, interleaved_to_half_rows

even_d = st.integers(1, 32).map(lambda h: 2 * h)
seed = st.integers(0, 10_000)


@given(n=st.integers(1, 20), d=even_d, seed=seed)
def test_decoding_with_a_kv_cache_gives_the_scores_of_recomputing_everything(n, d, seed):
    assert claims.kv_cache_matches_recompute(n, d, seed).holds


def test_cached_scores_are_masked_above_the_diagonal():
    scores, cache = cached_decoding_scores(np.ones((3, 4)), np.ones((3, 4)))
    assert np.all(np.isneginf(scores[np.triu_indices(3, 1)])) and np.all(np.isfinite(scores[np.tril_indices(3)]))
    assert cache.shape == (3, 4)


def test_positions_from_mask_count_real_tokens_only():
    np.testing.assert_array_equal(positions_from_mask([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]),
                                  [[0, 0, 0, 1, 2], [0, 1, 2, 3, 4], [0, 1, 2, 0, 0]])


@given(n_real=st.integers(1, 12), n_pad=st.integers(0, 12), d=even_d, seed=seed)
def test_left_padding_with_positions_from_the_mask_changes_no_score(n_real, n_pad, d, seed):
    assert claims.left_padding_with_mask_positions(n_real, n_pad, d, seed).holds


@given(s=st.floats(1.0, 64.0), d=st.integers(2, 128).map(lambda h: 2 * h),
       b=st.sampled_from([10_000.0, 500_000.0]))
def test_ntk_aware_keeps_theta_0_and_divides_the_slowest_hand_by_s(s, d, b):
    assert claims.ntk_aware_ends(d, s, b).holds


@given(s=st.floats(1.0, 64.0), low=st.floats(0.5, 2.0), width=st.floats(0.5, 8.0))
def test_llama31_rule_is_yarns_ramp_between_low_and_high_freq_factor(s, low, width):
    assert claims.llama3_bands(128, s, low, low + width).holds
    assert claims.llama3_is_yarn_ramp(128, s, low, low + width).holds


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


def test_angles_in_float64_are_the_exact_angles_and_bfloat16_ones_are_far_off():
    positions = np.arange(4096)
    exact = rotation_angles(positions, 64, 10_000.0)
    np.testing.assert_array_equal(angles_in_precision(positions, 64, 10_000.0, "float64"), exact)
    bf16_error = np.abs(np.cos(angles_in_precision(positions, 64, 10_000.0, "bfloat16")) - np.cos(exact)).max()
    assert bf16_error > 1.0


def test_partial_sums_are_cumulative_sums_of_unit_phasors():
    d, r = 8, 3.0
    theta = [10_000.0 ** (-2 * j / d) for j in range(d // 2)]
    expected = np.cumsum([np.exp(1j * r * t) for t in theta])
    np.testing.assert_allclose(rope_partial_sums([r], d)[0], expected, rtol=1e-14)


@given(d=even_d)
def test_decay_bound_at_distance_zero_is_the_mean_of_one_to_d_over_2(d):
    assert long_term_decay_bound([0], d)[0] == pytest.approx((d // 2 + 1) / 2)


@given(d=st.integers(2, 64).map(lambda h: 2 * h), seed=seed, b=st.sampled_from([10_000.0, 500_000.0]))
def test_roformer_bound_holds_for_every_distance(d, seed, b):
    assert claims.long_term_decay_bound_holds(d, b, max_distance=512, seed=seed).holds


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32"])
def test_angles_in_precision_are_what_torch_computes_in_that_precision(dtype):
    kind = getattr(torch, dtype)
    positions = torch.arange(0, 8192, 7).to(kind)  # integer positions cast to the format
    theta = torch.tensor([500_000.0 ** (-2 * j / 64) for j in range(32)], dtype=torch.float64).to(kind)
    in_torch = (positions[:, None] * theta[None, :]).double().numpy()
    np.testing.assert_array_equal(angles_in_precision(np.arange(0, 8192, 7), 64, 500_000.0, dtype), in_torch)


def test_the_decay_bound_levels_off_at_the_random_walk_level():
    edges, means = long_term_decay_octaves(128, 10_000.0, octaves=20)
    assert edges[0] == 1 and edges[-1] == 2**20 and means.shape == (20,)
    assert means[0] > 30 and abs(means[-1] / random_walk_level(128) - 1) < 0.05


@given(values=st.lists(st.floats(-6e4, 6e4, width=32), min_size=1, max_size=40),
       dtype=st.sampled_from(["bfloat16", "float16", "float32"]))
def test_round_to_rounds_as_torch_converts(values, dtype):
    expected = torch.tensor(values, dtype=torch.float32).to(getattr(torch, dtype)).double().numpy()
    np.testing.assert_array_equal(round_to(values, dtype), expected)
