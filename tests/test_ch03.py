"""Chapter 3, *A ladder of frequencies*: its claims, under many inputs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc.book.claims import ch03 as claims
from posenc.sinusoidal import similarity

even_d = st.integers(1, 32).map(lambda h: 2 * h)
shifts = st.floats(-1e4, 1e4, allow_nan=False)
wide_d = st.integers(1, 64).map(lambda h: 2 * h)
position = st.integers(-5000, 5000)


@given(p=position, q=position, d=wide_d)
def test_sinusoidal_dot_product_depends_only_on_offset(p, q, d):
    assert claims.sinusoidal_offset(p, [q], d).holds


@given(k=st.integers(-2000, 2000), d=wide_d)
def test_shift_matrix_moves_every_position_by_k(k, d):
    assert claims.sinusoidal_shift(k, n_positions=40, d=d).holds


@given(shifts, even_d)
def test_shift_matrix_blocks_are_clockwise_rotations(k, d):
    assert claims.shift_blocks_turn_clockwise(k, d).holds


@given(st.integers(-5000, 5000), st.integers(-5000, 5000), even_d)
def test_scaled_sinusoidal_dot_product_is_the_cosine_similarity(m, n, d):
    assert claims.sinusoidal_cosine_similarity(m, n, d).holds


@given(n=st.integers(2, 16), d_model=even_d, seed=st.integers(0, 1000))
def test_added_encoding_score_is_the_sum_of_its_four_terms(n, d_model, seed):
    assert claims.added_encoding_expansion(n, d_model, seed).holds


@given(near=st.integers(0, 10), offset=st.integers(-10, 10), far=st.integers(1000, 20000), d=even_d)
def test_far_positions_obey_the_same_identity_as_near_ones(near, offset, far, d):
    assert claims.far_pair_matches_near_pair(near + far, near, offset, d).holds
    assert claims.sinusoidal_offset(near + far, [near + far + offset], d).holds


@given(n=st.integers(2, 16), d_model=even_d, seed=st.integers(0, 1000))
def test_each_term_of_a_repeated_token_depends_on_what_the_theorem_says(n, d_model, seed):
    assert claims.repeated_token_terms(n, d_model, seed).holds
    assert not claims.repeated_token_terms(n, d_model, seed, repeated=False).holds


def test_neighbours_look_more_alike_in_wider_tables_but_positions_six_apart_do_not():
    assert claims.neighbour_similarity_grows_with_width(1).holds
    assert not claims.neighbour_similarity_grows_with_width(6).holds


def test_the_widths_must_increase():
    with pytest.raises(ValueError, match="widths must increase"):
        claims.neighbour_similarity_grows_with_width(1, [64, 16])


def test_the_similarity_of_positions_12_and_13_at_width_64_is_the_lecture_s_reading():
    assert f"{similarity(12, [13], 64)[0] / 32:.3f}" == "0.966"  # what the lecture's interactive table shows
