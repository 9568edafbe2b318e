"""Chapter 2, *Absolute or relative?*: the rows of a learned table that training never
reaches, its claims and its experiment."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc.book.claims import ch02 as claims
from posenc.book.experiments.ch02 import lagged_copy_batch, train_briefly
from posenc.scores import toeplitz_deviation


def test_learned_rows_are_unrelated_and_their_scores_not_relative():
    rows = np.random.default_rng(0).standard_normal((1024, 32))  # what a freshly initialised table holds
    unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    cosines = np.delete(unit @ unit[100], 100)
    assert np.sqrt(np.mean(cosines ** 2)) == pytest.approx(1 / np.sqrt(32), rel=0.1)
    assert abs(cosines[100]) < 0.5  # row 101: a neighbour, yet no closer than chance
    assert toeplitz_deviation(rows[:64] @ rows[:64].T) > 10


def test_lagged_copy_targets_are_the_tokens_lag_back():
    tokens, targets = lagged_copy_batch(3, 20, vocab=7, lag=3, generator=torch.Generator().manual_seed(1))
    assert torch.equal(targets[:, 3:], tokens[:, :-3])
    assert bool((targets[:, :3] == -100).all())


@settings(max_examples=12)
@given(n_positions=st.integers(4, 48), data=st.data(), seed=st.integers(0, 100))
def test_rows_past_the_training_length_get_zero_gradient_and_stay_unchanged(n_positions, data, seed):
    train_length = data.draw(st.integers(4, n_positions))
    training = train_briefly(n_positions=n_positions, train_length=train_length, d_model=8, vocab=5, lag=2,
                             steps=4, batch=2, seed=seed)
    assert claims.untrained_rows_unchanged(training).holds
    np.testing.assert_array_equal(training.final_table[train_length:], training.initial_table[train_length:])
    # and the check is not vacuous: every row inside the training length was reached and moved
    assert np.all(training.largest_gradient[:train_length] > 0)
    assert np.all(training.row_change[:train_length] > 0)


def test_the_untrained_rows_claim_fails_when_a_row_moves():
    training = train_briefly(n_positions=32, train_length=16, d_model=8, steps=3, seed=0)
    moved = training.final_table.copy()
    moved[20, 0] += 1e-6
    tampered = replace(training, final_table=moved)
    assert not claims.untrained_rows_unchanged(tampered).holds


def test_weight_decay_only_shrinks_the_untrained_rows():
    training = train_briefly(n_positions=64, train_length=24, d_model=8, steps=10, weight_decay=0.1, seed=3)
    assert claims.decayed_rows_only_shrink(training).holds
    assert not claims.untrained_rows_unchanged(training).holds  # they did move: shrinking is a change


def test_brief_training_is_reproducible_with_a_seed():
    first, second = (train_briefly(n_positions=40, train_length=20, d_model=8, steps=5, seed=7) for _ in range(2))
    np.testing.assert_array_equal(first.final_table, second.final_table)
    np.testing.assert_array_equal(first.losses, second.losses)


def test_a_training_length_longer_than_the_table_is_refused():
    with pytest.raises(ValueError, match="train_length must be between 1 and n_positions=16, got 17"):
        train_briefly(n_positions=16, train_length=17)
