"""Chapter 2, *Absolute or relative?*: its experiment, a tiny model with a learned table trained briefly."""

from __future__ import annotations

import nbformat
import numpy as np
import pytest
import torch
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc.book.ch02 import train_briefly
from posenc.training import lagged_copy_batch

CHAPTER = ROOT / "chapters" / "02_absolute_or_relative.ipynb"


def test_the_gpt2_table_on_the_page_is_the_smallest_gpt2s():
    transformers = pytest.importorskip("transformers")
    config = transformers.GPT2Config()  # the defaults are the smallest GPT-2
    page = "\n".join(c.source for c in nbformat.read(str(CHAPTER), as_version=4).cells if c.cell_type == "code")
    assert f"gpt2_rows, gpt2_width, d_model = {config.n_positions}, {config.n_embd}, " in page


def test_lagged_copy_targets_are_the_tokens_lag_back():
    tokens, targets = lagged_copy_batch(3, 20, vocab=7, lag=3, generator=torch.Generator().manual_seed(1))
    assert torch.equal(targets[:, 3:], tokens[:, :-3])
    assert bool((targets[:, :3] == -100).all())


@pytest.mark.verifies("thm-untouched-rows")
@pytest.mark.parametrize("optimiser, momentum", [("SGD", 0.0), ("SGD", 0.9), ("Adam", 0.0), ("AdamW", 0.0)])
@settings(max_examples=6)
@given(n_positions=st.integers(4, 48), data=st.data(), seed=st.integers(0, 100))
def test_rows_past_the_training_length_get_zero_gradient_and_stay_unchanged(optimiser, momentum, n_positions, data,
                                                                            seed):
    train_length = data.draw(st.integers(4, n_positions))
    training = train_briefly(n_positions=n_positions, train_length=train_length, d_model=8, vocab=5, lag=2,
                             steps=4, batch=2, lr=0.1, optimiser=optimiser, momentum=momentum, seed=seed)
    assert np.max(training.largest_gradient[train_length:], initial=0.0) == 0
    np.testing.assert_array_equal(training.final_table[train_length:], training.initial_table[train_length:])
    # and the check is not vacuous: every row inside the training length was reached and moved
    assert np.all(training.largest_gradient[:train_length] > 0)
    assert np.all(training.row_change[:train_length] > 0)


def test_weight_decay_only_shrinks_the_untrained_rows():
    training = train_briefly(n_positions=64, train_length=24, d_model=8, steps=10, weight_decay=0.1, seed=3)
    before, after = training.initial_table[24:], training.final_table[24:]
    factor = (1 - training.lr * training.weight_decay) ** training.steps  # AdamW's decay, step after step
    rounding = training.steps * np.finfo(np.float32).eps * np.abs(before).max()  # one float32 rounding a step
    np.testing.assert_allclose(after, factor * before, rtol=0, atol=rounding)
    assert np.max(np.abs(after - before)) > 1e-3  # they did move: shrinking is a change


def test_brief_training_is_reproducible_with_a_seed():
    first, second = (train_briefly(n_positions=40, train_length=20, d_model=8, steps=5, seed=7) for _ in range(2))
    np.testing.assert_array_equal(first.final_table, second.final_table)
    np.testing.assert_array_equal(first.losses, second.losses)
