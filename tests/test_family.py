"""Chapter 10, the family: Shaw's clipped offsets, Transformer-XL's four terms, T5's buckets (against the
published formula and Hugging Face's code), xPos, NoPE's causal mask, tensor2tensor's sin | cos table."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
import yaml
from conftest import ROOT
from hypothesis import given
from hypothesis import strategies as st
from transformers.models.t5.modeling_t5 import T5Attention

from posenc import claims, relative, tensor2tensor, xpos
from posenc.rotary import apply_rope
from posenc.sinusoidal import frequencies, position_vectors

seed = st.integers(0, 10_000)
position = st.integers(-2000, 2000)
T5_CONFIGS = [(bidirectional, buckets, distance) for bidirectional in (True, False) for buckets in (8, 16, 32, 64)
              for distance in (16, 32, 128, 1000) if distance > (buckets // 2 if bidirectional else buckets) // 2]


# ---- Shaw et al.: a clipped table of key vectors ----


@given(n=st.integers(2, 14), d=st.sampled_from([2, 4, 8]), max_offset=st.integers(1, 5), seed=seed)
def test_shaw_scores_of_a_repeated_token_are_toeplitz_and_flat_beyond_the_clip(n, d, max_offset, seed):
    assert claims.shaw_repeated_token_toeplitz(n, d, max_offset, seed).holds


def test_shaw_scores_match_the_formula_entry_by_entry():
    rng = np.random.default_rng(0)
    n, d, c = 7, 4, 2
    q, k, table = rng.standard_normal((n, d)), rng.standard_normal((n, d)), rng.standard_normal((2 * c + 1, d))
    by_hand = [[q[m] @ (k[j] + table[min(max(j - m, -c), c) + c]) / 2.0 for j in range(n)] for m in range(n)]
    np.testing.assert_allclose(relative.shaw_scores(q, k, table), by_hand, rtol=1e-13, atol=1e-13)


# ---- Transformer-XL: four terms, offset only ----


@given(n=st.integers(2, 10), shift=st.integers(1, 40), seed=seed)
def test_transformer_xl_scores_do_not_move_with_the_tokens(n, shift, seed):
    assert claims.transformer_xl_shift_invariant(n=n, shift=shift, seed=seed).holds


@given(shift=st.integers(1, 40), seed=seed)
def test_added_absolute_positions_move_with_the_tokens(shift, seed):
    assert not claims.transformer_xl_shift_invariant(shift=shift, seed=seed, scheme="absolute").holds


def test_transformer_xl_terms_match_the_papers_formula():
    rng = np.random.default_rng(1)
    n, d, d_model = 5, 4, 6
    x = rng.standard_normal((n, d_model))
    w_q, w_ke, w_kr = rng.standard_normal((3, d, d_model))
    u, v = rng.standard_normal((2, d))
    terms = relative.transformer_xl_terms(x, w_q, w_ke, w_kr, u, v)
    for m in range(n):
        for j in range(n):
            r = position_vectors([m - j], d_model)[0]  # R_(i-j), query minus key
            expected = (x[m] @ w_q.T @ w_ke @ x[j] + x[m] @ w_q.T @ w_kr @ r + u @ w_ke @ x[j] + v @ w_kr @ r)
            assert sum(t[m, j] for t in terms.values()) == pytest.approx(expected, rel=1e-12, abs=1e-12)


# ---- T5: buckets of the offset ----


def published_bucket(offset: int, bidirectional: bool, num_buckets: int, max_distance: int) -> int:
    """The T5 bucket of one offset (key minus query), restated from the paper's code line by line, with
    the logarithm in float32 as there."""
    bucket = 0
    if bidirectional:
        num_buckets //= 2
        bucket = num_buckets if offset > 0 else 0
        distance = abs(offset)
    else:
        distance = max(-offset, 0)
    exact = num_buckets // 2
    if distance < exact:
        return bucket + distance
    spread = np.log(np.float32(distance) / np.float32(exact)) / np.float32(np.log(max_distance / exact))
    return bucket + min(exact + int(spread * np.float32(num_buckets - exact)), num_buckets - 1)


@pytest.mark.parametrize(("bidirectional", "num_buckets", "max_distance"), T5_CONFIGS)
def test_t5_buckets_equal_hugging_faces_and_the_published_formula(bidirectional, num_buckets, max_distance):
    offsets = np.arange(-3 * max_distance, 3 * max_distance + 1)
    ours = relative.t5_bucket(offsets, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    theirs = T5Attention._relative_position_bucket(torch.tensor(offsets), bidirectional=bidirectional,
                                                   num_buckets=num_buckets, max_distance=max_distance).numpy()
    np.testing.assert_array_equal(ours, theirs)
    restated = [published_bucket(int(o), bidirectional, num_buckets, max_distance) for o in offsets[::7]]
    np.testing.assert_array_equal(ours[::7], restated)


@pytest.mark.parametrize(("bidirectional", "num_buckets", "max_distance"), T5_CONFIGS)
def test_t5_buckets_grow_with_distance_and_stop_at_max_distance(bidirectional, num_buckets, max_distance):
    options = {"bidirectional": bidirectional, "num_buckets": num_buckets, "max_distance": max_distance}
    behind = relative.t5_bucket(-np.arange(4 * max_distance), **options)
    assert np.all(np.diff(behind) >= 0) and behind.min() == 0 and behind.max() < num_buckets
    assert np.all(behind[max_distance:] == behind[-1])
    ahead = relative.t5_bucket(np.arange(1, 100), **options)
    assert np.all(ahead == 0) if not bidirectional else np.all(ahead >= num_buckets // 2)


@given(n=st.integers(2, 300), config=st.sampled_from(T5_CONFIGS), seed=seed)
def test_t5_bias_depends_only_on_the_offset(n, config, seed):
    bidirectional, num_buckets, max_distance = config
    assert claims.t5_bias_toeplitz(n, num_buckets, max_distance, bidirectional, seed).holds


def test_bucketing_positions_before_subtracting_is_not_offset_only():
    assert not claims.t5_bias_toeplitz(64, 32, 128, bucket="positions").holds
    assert claims.t5_bias_toeplitz(8, 32, 128, bucket="positions").holds  # within the exact buckets it is


# ---- xPos ----


@given(m=position, n=position, shift=position, d=st.sampled_from([8, 64]), seed=seed)
def test_xpos_scores_depend_only_on_the_offset(m, n, shift, d, seed):
    assert claims.xpos_scores_depend_on_offset(m, n, shift, d=d, scale_base=4096.0, seed=seed).holds


@given(m=st.integers(0, 500), n=st.integers(0, 500), shift=st.integers(50, 500), seed=seed)
def test_xpos_keys_scaled_like_queries_move_with_the_pair(m, n, shift, seed):
    assert not claims.xpos_scores_depend_on_offset(m, n, shift, seed=seed, key_role="query").holds


def test_xpos_is_rope_at_position_zero_and_decays_behind_the_query():
    x = np.random.default_rng(2).standard_normal((1, 16))
    np.testing.assert_array_equal(xpos.xpos(x, [0.0]), apply_rope(x, [0.0]))
    zeta = xpos.xpos_zeta(16)
    assert np.all((zeta > 0) & (zeta < 1)) and np.all(np.diff(zeta) > 0)
    scale = xpos.xpos_scale([512.0], 16)[0] * xpos.xpos_scale([0.0], 16, role="key")[0]
    np.testing.assert_allclose(scale, np.repeat(zeta, 2), rtol=1e-15)  # distance B: one factor zeta_j per pair


# ---- NoPE: the causal mask ----


@given(n=st.integers(2, 10), seed=seed)
def test_a_causal_head_is_not_permutation_equivariant_and_a_full_head_is(n, seed):
    assert not claims.causal_permutation_equivariance(n=n, seed=seed, causal=True).holds
    assert claims.causal_permutation_equivariance(n=n, seed=seed, causal=False).holds


@given(n=st.integers(1, 20), seed=seed)
def test_a_causal_head_with_equal_scores_averages_what_it_sees(n, seed):
    assert claims.causal_uniform_attention_averages(n=n, seed=seed).holds


# ---- tensor2tensor's table ----


@given(n=st.integers(1, 64), d=st.sampled_from([4, 8, 64, 128]), base=st.sampled_from([100.0, 10_000.0]))
def test_the_timing_signal_is_the_half_layout(n, d, base):
    assert claims.timing_signal_is_half_layout(n, d, base).holds


def test_the_timing_ladder_runs_from_one_to_exactly_one_over_the_base():
    ladder = tensor2tensor.timing_frequencies(64)
    assert ladder[0] == 1.0 and ladder[-1] == pytest.approx(1e-4, rel=1e-13)
    assert frequencies(64)[-1] > 1.3e-4  # the paper's ladder stops short of 1/base
    table = tensor2tensor.timing_signal(50, 8)
    np.testing.assert_allclose(table[:, :4] ** 2 + table[:, 4:] ** 2, 1.0, rtol=1e-15)  # (j, j + d/2): one angle


# ---- the chapter ----


def test_chapter_10_follows_chapter_9_and_ends_with_its_exercises():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [entry["file"] for part in toc["parts"] for entry in part["chapters"]]
    assert files.index("chapters/09_stretching_rope") + 1 == files.index("chapters/10_the_family")
    notebook = json.loads((ROOT / "chapters" / "10_the_family.ipynb").read_text(encoding="utf-8"))
    markdown = ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown"]
    assert markdown[0].startswith("(ch-the-family)=\n# The family")
    assert "exercises/release/ch10_family/family.ipynb" in markdown[-1]
