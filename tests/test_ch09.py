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
from transformers import LlamaConfig
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

from posenc import scaling
from posenc.book import ch09 as extrapolation
from posenc.book.ch02 import fit
from posenc.book.ch09 import accuracy, copy_batch
from posenc.book.claims import ch09 as claims
from posenc.scaling import dynamic_ntk
from posenc.torch_nn import TinyModel

base = st.sampled_from([10_000.0, 500_000.0, 1_000_000.0])
PI, PI_FIXED, YARN, LLAMA = extrapolation.STRETCHED
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
    # the slowest hand: divided by L'/L0 = 3 in the paper, by factor * 3 - (factor - 1) in the code
    assert code[-1] / paper[-1] == pytest.approx(3 / (3 * factor - (factor - 1)), rel=1e-12)


@pytest.mark.parametrize(("trained", "original"), [(4096, 2048), (8192, 4096)])
def test_hugging_faces_dynamic_type_reads_the_trained_length_from_max_position_embeddings(trained, original):
    """The chapter's L0 for dynamic NTK is transformers' max_position_embeddings; an
    original_max_position_embeddings in the rope parameters is ignored."""
    config = LlamaConfig(hidden_size=256, num_attention_heads=4, max_position_embeddings=trained,
                         rope_parameters={"rope_type": "dynamic", "factor": 4.0, "rope_theta": 10_000.0,
                                          "original_max_position_embeddings": original})
    inv_freq, _ = ROPE_INIT_FUNCTIONS["dynamic"](config, "cpu", seq_len=3 * trained)
    theirs = inv_freq.double().numpy()
    np.testing.assert_allclose(theirs, dynamic_ntk(64, 3 * trained, trained, 10_000.0, factor=4.0), rtol=1e-6)
    assert not np.allclose(theirs, dynamic_ntk(64, 3 * trained, original, 10_000.0, factor=4.0), rtol=1e-2)


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


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 1000), n=st.integers(2, 40))
def test_one_nope_layer_gives_a_query_the_same_output_whatever_the_order_of_the_tokens_before_it(seed, n):
    assert claims.one_layer_ignores_the_order_of_earlier_tokens("none", n=n, seed=seed).holds


@pytest.mark.parametrize("position", ["alibi", "rope"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_one_alibi_or_rope_layer_reads_the_order_of_the_tokens_before_a_query(position, seed):
    assert not claims.one_layer_ignores_the_order_of_earlier_tokens(position, seed=seed).holds


@given(gentle=st.floats(1e-3, 1.0), ratio=st.floats(1.1, 64.0))
def test_the_difference_of_two_alibi_heads_peaks_where_its_slope_vanishes(gentle, ratio):
    steep = gentle * ratio
    peak, share = claims.alibi_difference_bump(steep, gentle, 1.0)
    slope = steep * np.exp(-steep * peak) - gentle * np.exp(-gentle * peak)  # d/dx (e^(-gentle x) - e^(-steep x))
    assert abs(slope) <= 1e-12 * steep
    assert claims.alibi_difference_bump(steep, gentle, peak)[1] == pytest.approx(1.0)


def test_alibis_two_steepest_heads_make_a_bump_near_the_lag_that_stays_broad():
    steep, gentle, far = 1 / 4, 1 / 16, 16  # the toy's ALiBi slopes, twice the lag of 8
    peak, share = claims.alibi_difference_bump(steep, gentle, far)
    assert peak == pytest.approx(16 * np.log(4) / 3)  # ln(4) / (3/16)
    assert share == pytest.approx((np.exp(-1) - np.exp(-4)) / (4 ** (-1 / 3) - 4 ** (-4 / 3)))
    assert claims.alibi_difference_is_a_broad_bump(steep, gentle, far).holds
    assert not claims.alibi_difference_is_a_broad_bump(steep, gentle, 60).holds  # far enough out the bump is gone


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: claims.alibi_difference_bump(0.1, 0.2, 1.0), ValueError, "need steep > gentle > 0"),
    (lambda: claims.one_layer_ignores_the_order_of_earlier_tokens("learned"), ValueError, "position must be one of"),
    (lambda: claims.one_layer_ignores_the_order_of_earlier_tokens(None), TypeError, "position must be a string"),
])
def test_bad_arguments_to_the_one_layer_checks_are_refused_by_name(call, error, message):
    with pytest.raises(error, match=message):
        call()


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
    settings = {"train_length": 8, "lengths": (8, 16), "seeds": (5,), "d_model": 8, "n_heads": 2, "steps": 3,
                "batch": 4, "eval_batch": 4, "lag": 2, "fixed_factor": 2.0, "workers": 1}
    return extrapolation.run_experiment(**{**settings, **options})


def test_a_seeded_run_gives_identical_numbers_twice_and_another_seed_differs():
    first, second, other = short_run(), short_run(), short_run(seeds=(6,))
    assert list(first.accuracy) == list(extrapolation.TASKS)
    for task in extrapolation.TASKS:
        assert list(first.accuracy[task]) == list(extrapolation.METHODS)
        for name in extrapolation.METHODS:
            assert first.accuracy[task][name].shape == (1, 2)
            np.testing.assert_array_equal(first.accuracy[task][name], second.accuracy[task][name])
        for name in extrapolation.SCHEMES:
            np.testing.assert_array_equal(first.final_loss[task][name], second.final_loss[task][name])
            assert first.final_loss[task][name] != other.final_loss[task][name]
    assert claims.untrained_rows_unchanged(first).holds
    assert np.all(first.largest_gradient[: first.train_length] > 0)  # the trained rows were reached
    moved = first.row_change.copy()
    moved[-1] = 1e-7
    assert not claims.untrained_rows_unchanged(replace(first, row_change=moved)).holds


def test_the_table_has_a_row_per_method_and_a_range_per_task_and_length():
    result = short_run(seeds=(1, 2))
    table = result.table()
    assert [row[0] for row in table] == list(extrapolation.METHODS)
    assert all(len(row) == 1 + 2 * len(result.lengths) for row in table)
    values = result.accuracy["lag copy"]["RoPE"][:, 1]
    assert table[extrapolation.METHODS.index("RoPE")][4] == extrapolation.percent_range(values)


@pytest.mark.parametrize(("values", "text"), [([0.634, 0.86], "63\u201386%"), ([0.998, 1.0], "100%"),
                                              ([0.05], "5%"), ([0.5, 0.125, 0.25], "12\u201350%")])
def test_a_range_of_fractions_is_written_from_its_smallest_to_its_largest_percentage(values, text):
    assert extrapolation.percent_range(values) == text


def test_a_run_in_two_processes_gives_the_numbers_of_a_run_here():
    here, pooled = short_run(seeds=(3, 4)), short_run(seeds=(3, 4), workers=2)
    for task in extrapolation.TASKS:
        for name in extrapolation.METHODS:
            np.testing.assert_array_equal(here.accuracy[task][name], pooled.accuracy[task][name])
    np.testing.assert_array_equal(here.row_change, pooled.row_change)


def test_at_the_training_length_the_per_length_ladders_are_the_trained_model():
    # factor max(1, L'/L0) = 1 at L' = L0: interpolation, YaRN and Llama 3.1's rule change nothing there
    result = short_run(seeds=(1,))
    for task in extrapolation.TASKS:
        for name in (PI, YARN, LLAMA):
            assert result.accuracy[task][name][0, 0] == result.accuracy[task]["RoPE"][0, 0]


def test_the_fixed_interpolation_is_the_per_length_one_where_the_factors_coincide():
    result = short_run(seeds=(2,), fixed_factor=2.0)  # s = 2 = 16 / 8 at the second length
    for task in extrapolation.TASKS:
        fixed, per_length = (result.accuracy[task][name][0, 1] for name in (PI_FIXED,
                                                                             PI))
        assert fixed == per_length


def test_every_rescaled_row_runs_the_ladder_its_name_says():
    torch.manual_seed(0)
    model = TinyModel(5, 8, position="rope", n_heads=2)
    settings = extrapolation.Settings(8, (8, 32), 5, 8, 2, 1, 2, 1e-2, 2, 2.0, 2)
    stretched = extrapolation._stretched(model, settings, 32)  # s = 32 / 8 = 4
    turns = 8 / (2 * np.pi / (10_000.0 ** (-np.arange(2) / 2)))  # r_j = L0 / lambda_j for d_head = 4
    theta = 10_000.0 ** (-np.arange(2) / 2)

    def ramp(alpha, beta):  # the YaRN paper's gamma(r): 0 below alpha, 1 above beta, linear between
        gamma = np.clip((turns - alpha) / (beta - alpha), 0, 1)
        return (1 - gamma) * theta / 4 + gamma * theta
    expected = {PI: (theta / 4, 1.0), PI_FIXED: (theta / 2, 1.0),
                YARN: (ramp(1, 32), 0.1 * np.log(4) + 1),
                LLAMA: (ramp(1, 4), 1.0)}
    assert list(stretched) == list(extrapolation.STRETCHED)
    for name, (ladder, scale) in expected.items():
        for head in stretched[name].heads:
            np.testing.assert_allclose(head.frequencies, ladder, rtol=1e-12)
            assert head.qk_scale == pytest.approx(scale, rel=1e-12)


@pytest.mark.parametrize(("options", "error", "message"), [
    ({"lag": 8}, ValueError, "lag must be shorter than every length"),
    ({"workers": 0}, ValueError, "workers must be at least 1"),
    ({"seeds": (1.5,)}, TypeError, "seeds must be an integer"),
    ({"fixed_factor": 0.5}, ValueError, "fixed_factor must be at least 1"),
])
def test_bad_experiments_are_refused_by_name_before_training(options, error, message):
    with pytest.raises(error, match="run_experiment: " + message):
        short_run(**options)


def fake_result(cells=None):
    """A result of one seed with every accuracy 0.1 but the ``{(task, method, column): value}`` of ``cells``."""
    accuracy = {task: {method: np.full((1, 3), 0.1) for method in extrapolation.METHODS}
                for task in extrapolation.TASKS}
    for task in extrapolation.TASKS:  # what the claims need: the tables and RoPE learn at L0 ...
        for method in ("learned table", "sinusoidal table", "RoPE"):
            accuracy[task][method][0, 0] = 0.95
    accuracy["block copy"][PI][0, 1] = 0.8  # ... interpolation leads on the block copy ...
    accuracy["lag copy"]["RoPE"][0, 1] = 0.99  # ... and plain RoPE on the lag copy
    for (task, method, column), value in (cells or {}).items():
        accuracy[task][method][0, column] = value
    settings = extrapolation.Settings(8, (8, 16, 32), 5, 8, 2, 1, 2, 1e-2, 2, 4.0, 2)
    return extrapolation.Extrapolation(settings, (0,), accuracy, np.zeros((1, 3)), np.zeros(32), np.zeros(32), {}, 0.0)


EXPERIMENT_CLAIMS = [claims.trained_models_copy_at_training_length, claims.position_free_models_fail_at_training_length,
                     claims.block_copy_fails_off_the_trained_offset,
                     claims.interpolation_leads_the_block_copy_and_rope_the_lag_copy]


@pytest.mark.parametrize(("claim", "cell", "value"), [
    (claims.trained_models_copy_at_training_length, ("lag copy", "sinusoidal table", 0), 0.4),
    (claims.position_free_models_fail_at_training_length, ("block copy", "ALiBi", 0), 0.6),
    (claims.block_copy_fails_off_the_trained_offset, ("block copy", PI_FIXED, 0), 0.5),
    (claims.block_copy_fails_off_the_trained_offset, ("block copy", YARN, 1), 0.5),
    (claims.block_copy_fails_off_the_trained_offset, ("block copy", "learned table", 2), 0.5),
    (claims.interpolation_leads_the_block_copy_and_rope_the_lag_copy, ("block copy", "RoPE", 1), 0.7),
    (claims.interpolation_leads_the_block_copy_and_rope_the_lag_copy, ("lag copy", LLAMA, 1), 0.9),
])
def test_each_claim_about_the_experiment_fails_on_the_cell_that_contradicts_it(claim, cell, value):
    assert all(check(fake_result()).holds for check in EXPERIMENT_CLAIMS)
    assert not claim(fake_result({cell: value})).holds


def test_the_claims_about_the_experiment_do_not_look_at_cells_they_do_not_state():
    # YaRN recovering at 4 L0 and interpolation failing on the lag copy contradict none of them
    result = fake_result({("block copy", YARN, 2): 0.9,
                            ("block copy", PI_FIXED, 2): 0.9, ("lag copy", PI, 2): 0.0})
    assert all(check(result).holds for check in EXPERIMENT_CLAIMS)
