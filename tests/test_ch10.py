"""Chapter 10, *The family*: its claims under many inputs: Shaw's clipped offsets,
Transformer-XL's four terms, T5's buckets, ALiBi, xPos, NoPE's causal mask, partial and multi-axis RoPE,
tensor2tensor's table; and that they fail on broken versions."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
import torch
from hypothesis import assume, given
from hypothesis import strategies as st
from test_relative import T5_CONFIGS
from test_rotary_axes import section_sizes
from transformers.models.bloom.modeling_bloom import build_alibi_tensor
from transformers.models.qwen2_vl.configuration_qwen2_vl import Qwen2VLVisionConfig
from transformers.models.qwen2_vl.modeling_qwen2_vl import (
    Qwen2VLModel,
    Qwen2VLVisionRotaryEmbedding,
    apply_rotary_pos_emb_vision,
)
from transformers.models.t5.modeling_t5 import T5Attention
from transformers.vision_utils import get_vision_position_ids

from posenc import relative
from posenc.alibi import alibi_bias, alibi_slopes
from posenc.book.claims import ch10 as claims
from posenc.rotary import apply_rope, interleaved_to_half, rope_matrix
from posenc.rotary_axes import axial_rope, mrope, partial_rope
from posenc.scores import toeplitz_deviation
from posenc.xpos import xpos_zeta

seed = st.integers(0, 10_000)
position = st.integers(-2000, 2000)
far_position = st.integers(-5_000, 5_000)
even_d = st.integers(1, 32).map(lambda h: 2 * h)
fraction = st.sampled_from([0.25, 0.375, 0.4, 0.5, 0.75, 1.0])


@given(n=st.integers(2, 14), d=st.sampled_from([2, 4, 8]), max_offset=st.integers(1, 5), seed=seed)
def test_shaw_scores_of_a_repeated_token_are_toeplitz_and_flat_beyond_the_clip(n, d, max_offset, seed):
    assert claims.shaw_repeated_token_toeplitz(n, d, max_offset, seed).holds


@given(term=st.sampled_from(["content", "position"]), n=st.integers(2, 14), max_offset=st.integers(1, 5),
       seed=seed)
def test_neither_shaw_term_is_toeplitz_for_distinct_tokens_and_both_are_for_a_repeated_one(term, n, max_offset, seed):
    assert not claims.shaw_term_toeplitz(term, n, 8, max_offset, seed).holds
    assert claims.shaw_term_toeplitz(term, n, 8, max_offset, seed, repeated=True).holds


def test_shaw_position_term_is_the_query_against_the_clipped_offset_vector():
    rng = np.random.default_rng(3)  # the seed the claim draws from, in the claim's order
    q, _ = rng.standard_normal((2, 6, 4))
    table = rng.standard_normal((5, 4))
    by_hand = np.array([[q[m] @ table[min(max(n - m, -2), 2) + 2] / 2.0 for n in range(6)] for m in range(6)])
    assert claims.shaw_term_toeplitz("position", 6, 4, 2, seed=3).max_deviation == pytest.approx(
        toeplitz_deviation(by_hand), rel=1e-12)


@given(n=st.integers(2, 10), shift=st.integers(1, 40), seed=seed)
def test_transformer_xl_scores_do_not_move_with_the_tokens(n, shift, seed):
    assert claims.transformer_xl_shift_invariant(n=n, shift=shift, seed=seed).holds


@given(shift=st.integers(1, 40), seed=seed)
def test_added_absolute_positions_move_with_the_tokens(shift, seed):
    assert not claims.transformer_xl_shift_invariant(shift=shift, seed=seed, scheme="absolute").holds


@pytest.mark.parametrize("d_model", [2, 16, 64])
def test_zero_tokens_with_first_coordinate_projections_score_0_at_the_start_and_sin_squared_1_one_later(d_model):
    check = claims.absolute_expansion_counterexample(d_model)
    assert check.holds, check
    assert "s_00 = 0.000" in check.claim and f"s_11 = {math.sin(1) ** 2:.3f}" in check.claim


@given(n=st.integers(2, 300), config=st.sampled_from(T5_CONFIGS), seed=seed)
def test_t5_bias_depends_only_on_the_offset(n, config, seed):
    bidirectional, num_buckets, max_distance = config
    assert claims.t5_bias_toeplitz(n, num_buckets, max_distance, bidirectional, seed).holds


def test_bucketing_positions_before_subtracting_is_not_offset_only():
    assert not claims.t5_bias_toeplitz(64, 32, 128, bucket="positions").holds
    assert claims.t5_bias_toeplitz(8, 32, 128, bucket="positions").holds  # within the exact buckets it is


def test_t5_defaults_give_eight_own_buckets_behind_seven_ahead_and_both_last_buckets_start_at_91():
    assert claims.t5_bucket_layout(32, 128) == {"exact behind": 8, "last behind": 15, "last behind starts": 91,
                                                 "exact ahead": 7, "last ahead": 31, "last ahead starts": 91,
                                                 "ahead set starts": 16, "first ahead used": 17}
    every_bucket = hugging_face_bucket(np.arange(-600, 601), 32, 128)
    assert 16 not in every_bucket and set(every_bucket) == set(range(32)) - {16}  # D = 0 sits in the backward set


@pytest.mark.parametrize(("bidirectional", "num_buckets", "max_distance"), T5_CONFIGS)
def test_every_position_from_max_distance_on_falls_in_the_last_bucket(bidirectional, num_buckets, max_distance):
    nu = num_buckets // 2 if bidirectional else num_buckets
    far = -torch.arange(max_distance, 4 * max_distance)  # D = -p for positions p >= D_max
    buckets = T5Attention._relative_position_bucket(far, bidirectional=bidirectional, num_buckets=num_buckets,
                                                    max_distance=max_distance)
    assert set(buckets.tolist()) == {nu - 1}


def hugging_face_bucket(offsets, num_buckets: int, max_distance: int) -> np.ndarray:
    return T5Attention._relative_position_bucket(torch.tensor(offsets), bidirectional=True, num_buckets=num_buckets,
                                                 max_distance=max_distance).numpy()


BIDIRECTIONAL_T5 = [(buckets, distance) for bidirectional, buckets, distance in T5_CONFIGS if bidirectional]


@pytest.mark.parametrize(("num_buckets", "max_distance"), BIDIRECTIONAL_T5)
def test_t5_bucket_layout_agrees_with_hugging_faces_buckets(num_buckets, max_distance):
    layout = claims.t5_bucket_layout(num_buckets, max_distance)
    for side, distances in (("behind", -np.arange(0, 4 * max_distance + 1)), ("ahead", np.arange(1, 4 * max_distance))):
        buckets = hugging_face_bucket(distances, num_buckets, max_distance)
        alone = [b for b in set(buckets.tolist()) if np.sum(buckets == b) == 1]
        last = buckets[-1]
        assert layout[f"exact {side}"] == len(alone) and layout[f"last {side}"] == last
        assert layout[f"last {side} starts"] == np.abs(distances[buckets == last]).min()
    ahead = hugging_face_bucket(np.arange(1, 4 * max_distance), num_buckets, max_distance)
    assert layout["first ahead used"] == ahead.min() > layout["ahead set starts"] == num_buckets // 2
    assert layout["ahead set starts"] not in hugging_face_bucket(np.arange(-600, 601), num_buckets, max_distance)


def printed_t5_bucket(distance: int, nu: int, max_distance: int) -> float:
    """Equation eq-t5-bucket as the chapter prints it, with nu/2 (not nu // 2) and the logarithm in float32."""
    if distance < nu / 2:
        return distance
    spread = np.log(np.float32(distance) / np.float32(nu / 2)) / np.float32(np.log(max_distance / (nu / 2)))
    return min(nu - 1, nu / 2 + math.floor(spread * np.float32(nu / 2)))


@pytest.mark.parametrize("max_distance", [20, 40, 128])
@pytest.mark.parametrize("nu", [4, 8, 16, 32, 5, 9, 15])
def test_the_printed_bucket_formula_is_t5s_exactly_when_nu_is_even(nu, max_distance):
    distances = np.arange(3 * max_distance)
    code = relative.t5_bucket(-distances, bidirectional=False, num_buckets=nu, max_distance=max_distance)
    printed = [printed_t5_bucket(int(distance), nu, max_distance) for distance in distances]
    assert np.array_equal(code, printed) == (nu % 2 == 0)


@given(heads=st.integers(1, 64))
def test_alibi_slopes_follow_the_papers_rule_for_every_head_count(heads):
    assert claims.alibi_slopes_follow_the_rule(heads).holds
    assert claims.alibi_added_slopes_interleave(heads).holds


@pytest.mark.parametrize("heads", [3, 6, 12, 40])
def test_the_interleaving_check_fails_on_a_geometric_sequence_over_all_heads(heads, monkeypatch):
    monkeypatch.setattr(claims, "alibi_slopes", lambda h: 2.0 ** (-8 * np.arange(1, h + 1) / h))
    assert not claims.alibi_added_slopes_interleave(heads).holds


@given(heads=st.integers(3, 64).filter(lambda h: not math.log2(h).is_integer()))
def test_alibi_first_added_slope_lies_above_the_base_slopes_and_the_rest_between_them(heads):
    slopes = alibi_slopes(heads)
    c = 2 ** int(math.log2(heads))  # the largest power of two below heads
    base, added = slopes[:c], slopes[c:]
    assert len(added) == heads - c and added[0] > base.max()
    for slope in added[1:]:  # strictly between two neighbouring base slopes
        assert np.any((base[1:] < slope) & (slope < base[:-1]))


@pytest.mark.parametrize("heads", [3, 6, 8, 12, 16, 40])
def test_alibi_slopes_equal_blooms(heads):
    blooms = build_alibi_tensor(torch.ones(1, 2), heads, torch.float64)[:, 0, 1].numpy()  # slope x position 1
    np.testing.assert_allclose(alibi_slopes(heads), blooms, rtol=1e-6)  # BLOOM computes the slopes in float32


@pytest.mark.parametrize("heads", [3, 6, 12, 40])
def test_the_geometric_sequence_holds_only_for_a_power_of_two_head_count(heads):
    assert not math.log2(heads).is_integer()
    assert not np.allclose(alibi_slopes(heads), 2.0 ** (-8 * np.arange(1, heads + 1) / heads))


def qwen2_vl_ids(segments) -> np.ndarray:
    """Qwen2-VL's ``get_rope_index`` (transformers) for text runs (ints) and images ((rows, cols) patches)."""
    types = np.concatenate([np.zeros(s, int) if isinstance(s, int) else np.ones(s[0] * s[1], int) for s in segments])
    grids = torch.tensor([[1, *s] for s in segments if not isinstance(s, int)])
    model = SimpleNamespace(config=SimpleNamespace(vision_config=SimpleNamespace(spatial_merge_size=1)),
                            get_vision_position_ids=lambda *a, **k: Qwen2VLModel.get_vision_position_ids(None, *a, **k))
    ids, _ = Qwen2VLModel.get_rope_index(model, torch.zeros(1, len(types), dtype=torch.long),
                                         torch.from_numpy(types)[None], image_grid_thw=grids)
    return ids[:, 0].numpy()


@pytest.mark.parametrize("segments", [[3, (2, 3), 2], [1, (4, 2), 5, (3, 3), 1], [(2, 2), 4], [2, (1, 5)]])
def test_mrope_ids_equal_qwen2_vls_and_text_resumes_after_the_images_largest_id(segments):
    ids = claims.mrope_ids(segments)
    np.testing.assert_array_equal(ids, qwen2_vl_ids(segments))
    if isinstance(segments[-1], int):
        image_ids = ids[:, :-segments[-1]]
        assert np.all(ids[:, -segments[-1]] == image_ids.max() + 1)


@given(n=st.integers(2, 12), heads=st.integers(1, 16), seed=seed)
def test_a_full_alibi_head_cannot_tell_a_sequence_from_its_reverse_and_a_causal_one_can(n, heads, seed):
    assert claims.alibi_head_reversal(n, n_heads=heads, seed=seed).holds
    assert not claims.alibi_head_reversal(n, n_heads=heads, seed=seed, causal=True).holds


@pytest.mark.parametrize("heads", [1, 8, 12])
def test_reversing_the_positions_leaves_every_alibi_bias_unchanged(heads):
    bias = alibi_bias(9, alibi_slopes(heads))
    np.testing.assert_array_equal(bias, alibi_bias_by_hand(9, alibi_slopes(heads)))
    np.testing.assert_array_equal(np.flip(bias, axis=(1, 2)), bias)


def alibi_bias_by_hand(n: int, slopes) -> np.ndarray:
    return np.array([[[-slope * abs(key - query) for key in range(n)] for query in range(n)] for slope in slopes])


@given(n=st.integers(1, 40), heads=st.integers(1, 16))
def test_every_heads_alibi_bias_has_constant_diagonals(n, heads):
    assert claims.alibi_bias_toeplitz(n, heads).holds


@given(m=position, n=position, shift=position, d=st.sampled_from([8, 64]), seed=seed,
       gamma=st.sampled_from([0.1, 0.4, 1.0, 3.0]))
def test_xpos_scores_depend_only_on_the_offset(m, n, shift, d, seed, gamma):
    assert claims.xpos_scores_depend_on_offset(m, n, shift, d=d, scale_base=4096.0, seed=seed, gamma=gamma).holds


def test_the_xpos_check_uses_its_gamma_on_both_sides(monkeypatch):
    monkeypatch.setattr(claims, "xpos_zeta", lambda d, gamma: xpos_zeta(d))  # the formula ignores gamma
    assert claims.xpos_scores_depend_on_offset(100, 30, 700, gamma=0.4).holds
    assert not claims.xpos_scores_depend_on_offset(100, 30, 700, gamma=2.0).holds


@given(m=st.integers(0, 500), n=st.integers(0, 500), shift=st.integers(50, 500), seed=seed)
def test_xpos_keys_scaled_like_queries_move_with_the_pair(m, n, shift, seed):
    assert not claims.xpos_scores_depend_on_offset(m, n, shift, seed=seed, key_role="query").holds


@given(n=st.integers(2, 10), seed=seed)
def test_a_causal_head_is_not_permutation_equivariant_and_a_full_head_is(n, seed):
    assert not claims.causal_permutation_equivariance(n=n, seed=seed, causal=True).holds
    assert claims.causal_permutation_equivariance(n=n, seed=seed, causal=False).holds


@given(n=st.integers(1, 20), seed=seed)
def test_a_causal_head_with_equal_scores_averages_what_it_sees(n, seed):
    assert claims.causal_uniform_attention_averages(n=n, seed=seed).holds


@given(m=far_position, n=far_position, shift=far_position, d=even_d, f=fraction, seed=seed)
def test_partial_rope_scores_depend_only_on_the_offset(m, n, shift, d, f, seed):
    r = int(d * f)
    assume(r >= 2 and r % 2 == 0)
    assert claims.partial_rotary_depends_on_offset(m, n, shift, d, f, seed).holds


@given(n=st.integers(1, 20), d=even_d, f=fraction, seed=seed)
def test_half_layout_partial_rope_on_reordered_coordinates_is_the_reordered_interleaved_one(n, d, f, seed):
    r = int(d * f)
    assume(r >= 2 and r % 2 == 0)
    assert claims.partial_rotary_layouts_agree(n, d, f, seed).holds


def test_half_and_interleaved_partial_rope_differ_without_the_reordering(monkeypatch):
    monkeypatch.setattr(claims, "interleaved_to_half", np.arange)
    assert not claims.partial_rotary_layouts_agree(d=96, rotary_fraction=0.25).holds


@given(d=st.integers(1, 16).map(lambda h: 4 * h), grid=st.integers(1, 6), seed=seed)
def test_axial_scores_depend_only_on_the_2d_offset(d, grid, seed):
    assert claims.axial_scores_depend_on_2d_offset(d, grid, seed).holds


def qwen2_vl_vision(x: np.ndarray, grid: tuple[int, int], merge: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """transformers' Qwen2-VL vision rotation of ``x`` (one head, shape ``(patches, d)``) for an image of
    ``grid`` patches (in transformers' patch order), and the ``(row, col)`` of each patch."""
    config = Qwen2VLVisionConfig(embed_dim=x.shape[-1], num_heads=1)
    position_ids = get_vision_position_ids(torch.tensor([[1, *grid]]), merge)
    cos, sin = Qwen2VLVisionRotaryEmbedding(config)(torch.from_numpy(x), position_ids)
    turned, _ = apply_rotary_pos_emb_vision(torch.from_numpy(x)[:, None], torch.from_numpy(x)[:, None], cos, sin)
    return turned[:, 0].double().numpy(), position_ids.numpy()


@pytest.mark.parametrize(("d", "grid"), [(80, (4, 6)), (16, (2, 2)), (64, (6, 4))])
def test_qwen2_vl_vision_rotation_in_transformers_is_axial_rope_after_interleaved_to_half(d, grid):
    x = np.random.default_rng(d).standard_normal((grid[0] * grid[1], d))
    p = interleaved_to_half(d)
    theirs, ids = qwen2_vl_vision(x[:, p], grid)
    ours = axial_rope(x, ids[:, 0], ids[:, 1])[:, p]
    np.testing.assert_allclose(theirs, ours, atol=2e-6)  # transformers turns in float32
    assert np.abs(qwen2_vl_vision(x, grid)[0] - axial_rope(x, ids[:, 0], ids[:, 1])).max() > 0.1  # unpermuted


@pytest.mark.parametrize(("d", "grid"), [(80, (4, 6)), (16, (2, 2))])
def test_the_chapters_written_out_qwen2_vl_rotation_is_transformers(d, grid):
    x = np.random.default_rng(1).standard_normal((grid[0] * grid[1], d))
    theirs, ids = qwen2_vl_vision(x, grid)
    np.testing.assert_allclose(claims.qwen2_vl_vision_rope(x, ids[:, 0], ids[:, 1]), theirs, atol=2e-6)


def rope_vit_by_complex_numbers(x: np.ndarray, rows, cols, base: float = 100.0) -> np.ndarray:
    """RoPE-ViT's axial rotation in torch, as its code builds it: unit complex numbers of the column's angles,
    then the row's, multiplying the coordinates read two at a time as complex numbers."""
    d = x.shape[-1]
    ladder = 1.0 / base ** (torch.arange(0, d, 4)[: d // 4].double() / d)
    angles = torch.cat([torch.outer(torch.as_tensor(cols).double(), ladder),
                        torch.outer(torch.as_tensor(rows).double(), ladder)], dim=-1)
    pairs = torch.view_as_complex(torch.from_numpy(x).reshape(len(x), -1, 2).contiguous())
    return torch.view_as_real(pairs * torch.polar(torch.ones_like(angles), angles)).reshape(x.shape).numpy()


@pytest.mark.parametrize(("rows", "cols"), [(3, 5), (14, 14)])
def test_the_chapters_written_out_rope_vit_rotation_is_its_complex_form(rows, cols):
    x = np.random.default_rng(2).standard_normal((rows * cols, 64))
    row, col = np.divmod(np.arange(rows * cols), cols)
    np.testing.assert_allclose(claims.rope_vit_axial(x, row, col), rope_vit_by_complex_numbers(x, row, col),
                               atol=1e-12)


@given(code=st.sampled_from(sorted(claims.AXIAL_CODES)), d=st.integers(1, 32).map(lambda h: 4 * h),
       rows=st.integers(1, 8), cols=st.integers(1, 8), seed=seed)
def test_each_models_2d_rope_is_axial_rope_after_its_permutation(code, d, rows, cols, seed):
    assert claims.axial_code_is_permuted_axial_rope(code, d, rows, cols, seed).holds


@pytest.mark.parametrize("code", sorted(claims.AXIAL_CODES))
def test_without_its_permutation_a_models_2d_rope_is_not_axial_rope(code, monkeypatch):
    rotation, _, base = claims.AXIAL_CODES[code]
    monkeypatch.setitem(claims.AXIAL_CODES, code, (rotation, np.arange, base))
    assert not claims.axial_code_is_permuted_axial_rope(code, d=80, rows=4, cols=5).holds


@given(rows=st.integers(1, 6), cols=st.integers(1, 6), d=st.integers(1, 16).map(lambda h: 4 * h), seed=seed)
def test_2d_rope_patch_scores_are_block_toeplitz_with_toeplitz_blocks(rows, cols, d, seed):
    assert claims.patch_scores_block_toeplitz(rows, cols, d, seed=seed).holds


@given(data=st.data(), rows=st.integers(1, 6), cols=st.integers(1, 6), d=even_d, seed=seed)
def test_mrope_patch_scores_of_one_image_are_block_toeplitz_with_toeplitz_blocks(data, rows, cols, d, seed):
    assert claims.patch_scores_block_toeplitz(rows, cols, d, data.draw(section_sizes(d)), seed).holds


@pytest.mark.parametrize(("rows", "cols", "seed"), [(2, 3, 0), (4, 5, 0), (3, 3, 7)])
def test_patch_scores_in_reading_order_equal_the_two_axis_formula(rows, cols, seed):
    d, half = 16, 8
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    r, c = np.divmod(np.arange(rows * cols), cols)  # reading order
    expected = np.array([[q[:half] @ rope_matrix(r[b] - r[a], half) @ k[:half]
                          + q[half:] @ rope_matrix(c[b] - c[a], half) @ k[half:] for b in range(rows * cols)]
                         for a in range(rows * cols)]) / np.sqrt(d)
    np.testing.assert_allclose(claims.repeated_patch_scores(rows, cols, d, seed=seed), expected, atol=1e-12)


@pytest.mark.parametrize("sections", [None, (4, 6, 6)])
@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 3), (4, 5)])
def test_patch_scores_in_reading_order_are_not_toeplitz_as_a_whole(rows, cols, sections):
    assert toeplitz_deviation(claims.repeated_patch_scores(rows, cols, 32, sections)) > 1e-3


@given(data=st.data(), seq=st.integers(1, 20), d=even_d, seed=seed)
def test_mrope_on_text_is_rope(data, seq, d, seed):
    assert claims.mrope_on_text_is_rope(seq, d, data.draw(section_sizes(d)), seed).holds


@given(data=st.data(), before=st.integers(1, 5), rows=st.integers(2, 4), cols=st.integers(2, 4),
       after=st.integers(1, 5), d=even_d, seed=seed)
def test_mrope_on_text_after_an_image_is_rope_at_the_texts_ids_not_its_indices(data, before, rows, cols, after, d,
                                                                                seed):
    ids = claims.mrope_ids([before, (rows, cols), after])
    text = np.r_[:before, ids.shape[1] - after:ids.shape[1]]
    sections = data.draw(section_sizes(d))
    assert claims.mrope_on_text_is_rope(d=d, sections=sections, seed=seed, positions=ids[0, text]).holds
    assert np.all(ids[0, text[before:]] < text[before:])  # after an image of 2 x 2 or more, ids lag the indices


@given(n=st.integers(1, 64), d=st.sampled_from([4, 8, 64, 128]), base=st.sampled_from([100.0, 10_000.0]))
def test_the_timing_signal_is_the_half_layout(n, d, base):
    assert claims.timing_signal_is_half_layout(n, d, base).holds


def test_the_claims_fail_on_broken_versions(monkeypatch):
    def absolute_pass_through(x, positions, rotary_fraction):  # adds the position to the pass-through dims
        turned = partial_rope(x, positions, rotary_fraction=rotary_fraction)
        turned[..., -1] += np.asarray(positions)
        return turned

    def rows_twice(x, rows, cols):  # both halves turned by the row: blind to the column
        return axial_rope(x, rows, rows) + 0.01 * np.asarray(cols)[:, None]

    def ladder_per_section(x, positions, sections):  # each section gets its own width-2s ladder
        bounds = 2 * np.cumsum((0, *sections))
        return np.concatenate([apply_rope(x[..., bounds[i]:bounds[i + 1]], positions[i])
                               for i in range(3) if sections[i]], axis=-1)

    monkeypatch.setattr(claims, "partial_rope", absolute_pass_through)
    monkeypatch.setattr(claims, "axial_rope", rows_twice)
    monkeypatch.setattr(claims, "mrope", ladder_per_section)
    assert not claims.partial_rotary_depends_on_offset(3, 10, 7).holds
    assert not claims.axial_scores_depend_on_2d_offset().holds
    assert not claims.patch_scores_block_toeplitz().holds
    assert not claims.mrope_on_text_is_rope().holds


def test_the_block_toeplitz_check_fails_when_the_width_id_is_absolute(monkeypatch):
    def width_added(x, ids, sections):  # the width id leaks into the vector: scores see where, not only how far
        return mrope(x, ids, sections) + 0.01 * np.asarray(ids)[2][:, None]

    monkeypatch.setattr(claims, "mrope", width_added)
    assert not claims.patch_scores_block_toeplitz(sections=(8, 12, 12)).holds


def test_the_chapter_defaults_hold():
    assert claims.partial_rotary_depends_on_offset(0, 100, 4000).holds
    assert claims.axial_scores_depend_on_2d_offset().holds
    assert claims.patch_scores_block_toeplitz().holds
    assert claims.patch_scores_block_toeplitz(sections=(8, 12, 12)).holds
    assert claims.mrope_on_text_is_rope().holds
