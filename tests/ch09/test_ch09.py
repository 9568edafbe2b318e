"""Chapter 9, *Stretching RoPE*: its extrapolation experiment (the copy task, the order-blind guess, a seeded
run that repeats itself, the rescaled ladders it runs) and its table."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from posenc.book import ch09 as extrapolation
from posenc.book.ch09 import accuracy, copy_batch
from posenc.book.glue import percent_range
from posenc.torch_nn import TinyModel

PI, PI_FIXED, YARN, LLAMA = extrapolation.STRETCHED


def test_the_copy_task_writes_the_block_out_on_the_blanks():
    tokens, targets = copy_batch(3, 10, 6, torch.Generator().manual_seed(1))
    assert tokens.shape == targets.shape == (3, 10)
    assert bool((tokens[:, :5] >= 1).all()) and bool((tokens[:, 5:] == 0).all())
    assert torch.equal(targets[:, 5:], tokens[:, :5]) and bool((targets[:, :5] == -100).all())


def test_the_order_blind_guess_and_accuracy_count_only_the_blanks():
    tokens, targets = copy_batch(16, 12, 5, torch.Generator().manual_seed(3))
    counts = [max(np.bincount(row[:6].numpy())) / 6 for row in tokens]
    assert extrapolation.order_blind(tokens, targets) == pytest.approx(np.mean(counts))

    class Oracle(torch.nn.Module):  # logits that point at the target on every blank
        def forward(self, t):
            return torch.nn.functional.one_hot(torch.cat([t[:, :6], t[:, :6]], dim=1), 5).float()
    assert accuracy(Oracle(), tokens, targets) == 1.0


def short_run(**options):
    settings = {"train_length": 8, "lengths": (8, 16), "seeds": (5,), "d_model": 8, "n_heads": 2, "steps": 3,
                "batch": 4, "eval_batch": 4, "lag": 2, "fixed_factor": 2.0}
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


def test_the_table_has_a_row_per_method_and_a_range_per_task_and_length():
    result = short_run(seeds=(1, 2))
    rows = [line.strip("| ").split(" | ") for line in result.markdown_table().splitlines()[2:]]
    assert [row[0] for row in rows] == [*extrapolation.METHODS, "best order-blind guess"]
    assert all(len(row) == 1 + 2 * len(result.lengths) for row in rows)
    values = result.accuracy["lag copy"]["RoPE"][:, 1]
    assert rows[extrapolation.METHODS.index("RoPE")][4] == percent_range(values)


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
    at_l0, at_2l0 = (extrapolation._stretched(model, settings, n) for n in (8, 16))  # s = 1, then s = 2
    for name in (PI, YARN, LLAMA):  # s = 1 changes nothing: the trained model
        np.testing.assert_allclose(at_l0[name].head.frequencies, theta, rtol=1e-12)
        assert at_l0[name].head.qk_scale == 1.0
    np.testing.assert_array_equal(at_2l0[PI].head.frequencies, at_2l0[PI_FIXED].head.frequencies)
