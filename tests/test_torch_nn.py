"""Torch modules: the same numbers as numpy, a table that refuses missing rows, and untrained rows that never move."""

from dataclasses import replace

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import attention as att
from posenc import claims
from posenc.rotary import apply_rope
from posenc.torch_nn import LearnedPositions, SelfAttentionHead, lagged_copy_batch, train_briefly

sizes = st.tuples(st.integers(1, 12), st.integers(1, 10), st.integers(1, 8).map(lambda h: 2 * h))  # n, d_model, d


def random_head(n: int, d_model: int, d_head: int, seed: int):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d_model))
    w_q, w_k, w_v = (rng.standard_normal((d_model, d_head)) / np.sqrt(d_model) for _ in range(3))
    return x, w_q, w_k, w_v


def run(head: SelfAttentionHead, x: np.ndarray, positions=None) -> np.ndarray:
    with torch.no_grad():
        return head(torch.from_numpy(x), positions).numpy()


@given(shape=sizes, seed=st.integers(0, 1000))
def test_attention_head_gives_the_numpy_numbers(shape, seed):
    x, w_q, w_k, w_v = random_head(*shape, seed)
    head = SelfAttentionHead.from_matrices(w_q, w_k, w_v)
    np.testing.assert_allclose(run(head, x), att.self_attention(x, w_q, w_k, w_v), atol=1e-12)


@given(shape=sizes, seed=st.integers(0, 1000))
def test_causal_head_gives_the_numpy_numbers(shape, seed):
    x, w_q, w_k, w_v = random_head(*shape, seed)
    head = SelfAttentionHead.from_matrices(w_q, w_k, w_v, causal=True)
    expected = att.attention(x @ w_q, x @ w_k, x @ w_v, mask=att.causal_mask(len(x)))
    np.testing.assert_allclose(run(head, x), expected, atol=1e-12)


@given(shape=sizes, offset=st.integers(0, 5000), seed=st.integers(0, 1000))
def test_rope_head_gives_the_numpy_numbers(shape, offset, seed):
    x, w_q, w_k, w_v = random_head(*shape, seed)
    positions = offset + np.arange(len(x))
    head = SelfAttentionHead.from_matrices(w_q, w_k, w_v, rope=True)
    expected = att.attention(apply_rope(x @ w_q, positions), apply_rope(x @ w_k, positions), x @ w_v)
    np.testing.assert_allclose(run(head, x, positions), expected, atol=1e-11)


def test_rope_head_scores_ignore_a_common_shift_of_positions():
    x, w_q, w_k, w_v = random_head(6, 8, 8, seed=4)
    head = SelfAttentionHead.from_matrices(w_q, w_k, w_v, rope=True)
    np.testing.assert_allclose(run(head, x, np.arange(6)), run(head, x, 1000 + np.arange(6)), atol=1e-10)


def test_rope_head_needs_an_even_width():
    with pytest.raises(ValueError, match="d_head must be even.*d_head=5"):
        SelfAttentionHead(8, 5, rope=True)


def test_learned_positions_hand_out_the_rows_of_the_table():
    table = LearnedPositions(10, 4)
    np.testing.assert_array_equal(table(3).detach().numpy(), table.table.weight[:3].detach().numpy())
    np.testing.assert_array_equal(table(torch.tensor([7, 2])).detach().numpy(),
                                  table.table.weight[[7, 2]].detach().numpy())
    assert table.n_positions == 10


@pytest.mark.parametrize(("ask", "message"), [
    (11, "no row for position 10; the table has rows 0..9"),
    (torch.tensor([3, 12]), "no row for position 12"),
    (torch.tensor([-1, 2]), "positions start at 0, got -1"),
])
def test_a_position_without_a_row_is_refused_by_name(ask, message):
    with pytest.raises(IndexError, match=message):
        LearnedPositions(10, 4)(ask)


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
