"""Chapter 2, *Absolute or relative?*: rows of a learned table that no training sequence reaches, under every
optimiser the page names; the task its tiny model learns; GPT-2's table."""

from __future__ import annotations

import nbformat
import numpy as np
import pytest
import torch
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc.torch_nn import TinyModel
from posenc.training import fit_watching_table, lagged_copy_batch

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
    torch.manual_seed(seed)
    model = TinyModel(vocab=5, d_model=8, n_positions=n_positions)
    sequences = torch.Generator().manual_seed(seed)
    _, before, after, largest_gradient = fit_watching_table(
        model, lambda: lagged_copy_batch(2, train_length, 5, 2, sequences), 4, lr=0.1, optimiser=optimiser,
        momentum=momentum)
    assert np.max(largest_gradient[train_length:], initial=0.0) == 0
    np.testing.assert_array_equal(after[train_length:], before[train_length:])
    # and the check is not vacuous: every row inside the training length was reached and moved
    assert np.all(largest_gradient[:train_length] > 0)
    assert np.all(np.abs(after - before)[:train_length].max(axis=1) > 0)
