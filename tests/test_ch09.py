"""Chapter 9, *Stretching RoPE*: its claims under many inputs (the papers' and the reference
code's forms of context extension, the long-term decay bound), and its extrapolation experiment: the copy
task, untouched table rows, and a seeded run that repeats itself."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import scaling
from posenc.book.claims import ch09 as claims
from posenc.book.experiments import ch09 as extrapolation
from posenc.book.experiments.ch02 import fit
from posenc.book.experiments.ch09 import accuracy, copy_batch
from posenc.scaling import dynamic_ntk
from posenc.torch_nn import TinyModel

base = st.sampled_from([10_000.0, 500_000.0, 1_000_000.0])
seed = st.integers(0, 10_000)
widths = st.integers(1, 6).map(lambda h: 2 * h)


@given(s=st.floats(1.0, 64.0), d=st.integers(2, 128).map(lambda h: 2 * h),
       b=st.sampled_from([10_000.0, 500_000.0]))
def test_ntk_aware_keeps_theta_0_and_divides_the_slowest_hand_by_s(s, d, b):
    assert claims.ntk_aware_ends(d, s, b).holds


@given(factor=st.floats(1.0, 32.0), b=base)
def test_the_two_dynamic_forms_agree_up_to_the_context_and_differ_beyond(factor, b):
    assert claims.dynamic_ntk_forms(128, factor, 8192, b).holds
    paper, code = dynamic_ntk(128, 3 * 8192, 8192, b), dynamic_ntk(128, 3 * 8192, 8192, b, factor=factor)
    # the slowest hand: divided by L/L0 = 3 in the paper, by factor * 3 - (factor - 1) in the code
    assert code[-1] / paper[-1] == pytest.approx(3 / (3 * factor - (factor - 1)), rel=1e-12)


@given(d=st.integers(8, 128).map(lambda h: 2 * h), factor=st.floats(1.0, 64.0), b=base,
       context=st.sampled_from([2048, 4096, 8192]))
def test_yarn_paper_and_code_agree_outside_the_codes_ramp(d, factor, b, context):
    assert claims.yarn_forms_agree_outside_ramp(d, factor, context, b).holds


@given(s=st.floats(1.0, 64.0), low=st.floats(0.5, 2.0), width=st.floats(0.5, 8.0))
def test_llama31_rule_is_yarns_ramp_between_low_and_high_freq_factor(s, low, width):
    assert claims.llama3_bands(128, s, low, low + width).holds
    assert claims.llama3_is_yarn_ramp(128, s, low, low + width).holds


@given(d=st.integers(2, 64).map(lambda h: 2 * h), seed=seed, b=st.sampled_from([10_000.0, 500_000.0]))
def test_roformer_bound_holds_for_every_distance(d, seed, b):
    assert claims.long_term_decay_bound_holds(d, b, max_distance=512, seed=seed).holds


@given(d=widths, factor=st.floats(1.0, 64.0), seed=st.integers(0, 1000))
def test_position_interpolation_is_rope_at_scaled_positions(d, factor, seed):
    assert claims.interpolation_is_scaled_positions(d, factor, n=64, seed=seed).holds


def test_the_scaled_positions_check_fails_for_yarns_ladder():
    yarn = scaling.yarn(16, 2.0, 32, 10_000.0, alpha=1, beta=4)  # keeps the fast hand: not theta / 2
    assert not claims.interpolation_is_scaled_positions(16, 2.0, frequencies=yarn).holds


def test_the_copy_task_writes_the_block_out_on_the_blanks():
    tokens, targets = copy_batch(3, 10, 6, torch.Generator().manual_seed(1))
    assert tokens.shape == targets.shape == (3, 10)
    assert bool((tokens[:, :5] >= 1).all()) and bool((tokens[:, 5:] == 0).all())
    assert torch.equal(targets[:, 5:], tokens[:, :5]) and bool((targets[:, :5] == -100).all())


@pytest.mark.parametrize(("args", "error", "message"), [
    ((2, 9, 5), ValueError, "length must be even"),
    ((2, 8, 1), ValueError, "vocab must be at least 2"),
    ((2, 8.0, 5), TypeError, "length must be an integer"),
])
def test_bad_copy_batches_are_refused_by_name(args, error, message):
    with pytest.raises(error, match="copy_batch: " + message):
        copy_batch(*args, generator=torch.Generator())


def test_the_order_blind_guess_and_accuracy_count_only_the_blanks():
    tokens, targets = copy_batch(16, 12, 5, torch.Generator().manual_seed(3))
    counts = [max(np.bincount(row[:6].numpy())) / 6 for row in tokens]
    assert extrapolation.order_blind(tokens, targets) == pytest.approx(np.mean(counts))

    class Oracle(torch.nn.Module):  # logits that point at the target on every blank
        def forward(self, t):
            return torch.nn.functional.one_hot(torch.cat([t[:, :6], t[:, :6]], dim=1), 5).float()
    assert accuracy(Oracle(), tokens, targets) == 1.0


@settings(max_examples=6, deadline=None)
@given(train_length=st.sampled_from([4, 8, 12]), seed=st.integers(0, 50))
def test_rows_of_the_table_past_the_training_length_are_untouched(train_length, seed):
    torch.manual_seed(seed)
    model = TinyModel(5, 8, 4 * train_length, position="learned", n_heads=2)
    before = model.positions.table.weight.detach().clone()
    data = torch.Generator().manual_seed(seed)
    fit(model, lambda: copy_batch(4, train_length, 5, data), 3, lr=1e-2)
    after = model.positions.table.weight.detach()
    assert torch.equal(after[train_length:], before[train_length:])
    assert bool((after[:train_length] != before[:train_length]).any(dim=1).all())  # the trained rows did move


def short_run(**options):
    return extrapolation.run_experiment(train_length=8, lengths=(8, 16), d_model=8, n_heads=2, steps=3,
                                        batch=4, fine_tune_steps=2, eval_batch=4, **options)


def test_a_seeded_run_gives_identical_numbers_twice_and_another_seed_differs():
    first, second, other = short_run(seed=5), short_run(seed=5), short_run(seed=6)
    assert list(first.accuracy) == [*extrapolation.SCHEMES, "RoPE + PI", "RoPE + YaRN", "RoPE + PI, fine-tuned"]
    for name in first.accuracy:
        np.testing.assert_array_equal(first.accuracy[name], second.accuracy[name])
    assert first.final_loss == second.final_loss and first.final_loss != other.final_loss
    assert claims.untrained_rows_unchanged(first).holds
    assert np.all(first.largest_gradient[: first.train_length] > 0)  # the trained rows were reached
    moved = first.row_change.copy()
    moved[-1] = 1e-7
    assert not claims.untrained_rows_unchanged(replace(first, row_change=moved)).holds
    assert len(first.table()) == 8 and first.table()[0][0] == "NoPE"


def test_at_the_training_length_the_stretched_ladders_are_the_trained_model():
    # factor max(1, L'/L) = 1 at L' = L: interpolation and YaRN change nothing there
    result = short_run(seed=1)
    for name in ("RoPE + PI", "RoPE + YaRN"):
        assert result.accuracy[name][0] == result.accuracy["RoPE"][0]
