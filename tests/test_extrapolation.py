"""Chapter 9's extrapolation experiment: the position schemes of TinyModel against the numpy references, RoPE
with an explicit ladder, the copy task, untouched table rows, and a seeded run that repeats itself."""

from dataclasses import replace

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import attention as att
from posenc import claims, extrapolation, scaling
from posenc.alibi import alibi_bias, alibi_slopes
from posenc.rotary import apply_rope, rope_with_ladder
from posenc.sinusoidal import frequencies, sinusoidal_table
from posenc.torch_nn import SelfAttentionHead, TinyModel, accuracy, copy_batch, fit, with_ladder

seed = st.integers(0, 1000)
widths = st.integers(1, 6).map(lambda h: 2 * h)


def random_head(n: int, d_model: int, d_head: int, seed: int):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d_model))
    return x, *(rng.standard_normal((d_model, d_head)) / np.sqrt(d_model) for _ in range(3))


def run(module, x: np.ndarray, *args) -> np.ndarray:
    with torch.no_grad():
        return module(torch.from_numpy(x), *args).numpy()


# ---- RoPE with an explicit ladder ----


@given(n=st.integers(1, 10), d=widths, base=st.sampled_from([100.0, 10_000.0, 500_000.0]),
       offset=st.integers(0, 3000), seed=seed)
def test_rope_with_the_ordinary_ladder_is_apply_rope(n, d, base, offset, seed):
    x = np.random.default_rng(seed).standard_normal((2, n, d))
    positions = offset + np.arange(n)
    expected = apply_rope(x, positions, base=base)
    np.testing.assert_allclose(rope_with_ladder(x, frequencies(d, base), positions), expected, atol=1e-10)
    as_torch = rope_with_ladder(torch.from_numpy(x), frequencies(d, base), positions)
    assert isinstance(as_torch, torch.Tensor) and as_torch.dtype == torch.float64
    np.testing.assert_allclose(as_torch.numpy(), expected, atol=1e-10)


@given(d=widths, factor=st.floats(1.0, 64.0), seed=seed)
def test_position_interpolation_is_rope_at_scaled_positions(d, factor, seed):
    assert claims.interpolation_is_scaled_positions(d, factor, n=64, seed=seed).holds


def test_the_scaled_positions_check_fails_for_yarns_ladder():
    yarn = scaling.yarn(16, 2.0, 32, 10_000.0, alpha=1, beta=4)  # keeps the fast hand: not theta / 2
    assert not claims.interpolation_is_scaled_positions(16, 2.0, frequencies=yarn).holds


@pytest.mark.parametrize(("x", "ladder", "error", "message"), [
    ([[1.0, 0.0]], [1.0], TypeError, "x must be a numpy array or a torch tensor, got list"),
    (np.ones(4), [1.0, 1.0], ValueError, r"x must have shape \(..., seq, d\)"),
    (np.ones((3, 4)), [1.0], ValueError, "frequencies must have d/2 = 2 entries for d=4, got 1"),
    (np.ones((3, 4)), [1.0, np.nan], ValueError, "frequencies must be finite"),
])
def test_rope_with_ladder_refuses_bad_input_by_name(x, ladder, error, message):
    with pytest.raises(error, match="rope_with_ladder: " + message):
        rope_with_ladder(x, ladder)


# ---- the heads and the model in float64 against numpy ----


@given(n=st.integers(1, 10), d=widths, slope=st.floats(1e-3, 2.0), seed=seed)
def test_an_alibi_head_adds_alibi_bias_to_the_causal_scores(n, d, slope, seed):
    x, w_q, w_k, w_v = random_head(n, 6, d, seed)
    head = SelfAttentionHead.from_matrices(w_q, w_k, w_v, alibi_slope=slope, causal=True)
    scores = (x @ w_q) @ (x @ w_k).T / np.sqrt(d) + alibi_bias(n, [slope])[0]
    expected = att.softmax(np.where(att.causal_mask(n), scores, -np.inf)) @ (x @ w_v)
    np.testing.assert_allclose(run(head, x), expected, atol=1e-12)


@given(n=st.integers(1, 10), d=widths, factor=st.sampled_from([1.0, 2.0, 4.0]), scale=st.floats(0.5, 2.0),
       seed=seed)
def test_a_head_with_a_ladder_rotates_by_that_ladder_and_scales_queries_and_keys(n, d, factor, scale, seed):
    x, w_q, w_k, w_v = random_head(n, 6, d, seed)
    head = SelfAttentionHead.from_matrices(w_q, w_k, w_v, rope=True)
    head.frequencies, head.qk_scale = scaling.position_interpolation(d, factor), scale
    q, k = (scale * apply_rope(x @ w, np.arange(n) / factor) for w in (w_q, w_k))
    np.testing.assert_allclose(run(head, x), att.attention(q, k, x @ w_v), atol=1e-11)


def model64(position: str, n_heads: int = 2, n_positions=None) -> TinyModel:
    torch.manual_seed(0)
    return TinyModel(7, 8, n_positions, position=position, n_heads=n_heads).double()


def reference_logits(model: TinyModel, tokens: np.ndarray, added: np.ndarray | None, rope: bool, slopes) -> np.ndarray:
    """The model's forward pass written with numpy: embedding (+ positions), causal heads, residual, read-out."""
    def weight(linear):
        return linear.weight.detach().numpy().T
    x = model.tokens.weight.detach().numpy()[tokens] + (0 if added is None else added)
    n, outputs = len(tokens), []
    for head, slope in zip(model.heads, slopes, strict=True):
        q, k, v = x @ weight(head.w_q), x @ weight(head.w_k), x @ weight(head.w_v)
        if rope:
            q, k = apply_rope(q), apply_rope(k)
        scores = q @ k.T / np.sqrt(q.shape[-1]) + (0 if slope is None else alibi_bias(n, [slope])[0])
        outputs.append(att.softmax(np.where(att.causal_mask(n), scores, -np.inf)) @ v)
    hidden = x + np.concatenate(outputs, axis=-1)
    return hidden @ weight(model.readout) + model.readout.bias.detach().numpy()


@pytest.mark.parametrize("position", ["none", "learned", "sinusoidal", "rope", "alibi"])
def test_each_position_scheme_gives_the_numpy_numbers(position):
    model = model64(position, n_positions=12 if position == "learned" else None)
    tokens = np.random.default_rng(2).integers(0, 7, 9)
    added = (model.positions.table.weight.detach().numpy()[:9] if position == "learned"
             else sinusoidal_table(9, 8) if position == "sinusoidal" else None)
    slopes = list(alibi_slopes(2)) if position == "alibi" else [None, None]
    with torch.no_grad():
        logits = model(torch.from_numpy(tokens)[None])[0].numpy()
    np.testing.assert_allclose(logits, reference_logits(model, tokens, added, position == "rope", slopes),
                               atol=1e-12)


def test_the_alibi_heads_take_the_papers_slopes():
    model = TinyModel(5, 8, position="alibi", n_heads=4)
    assert [head.alibi_slope for head in model.heads] == list(alibi_slopes(4))


def test_a_nope_model_is_blind_to_order_apart_from_the_causal_mask():
    # without positions, the last output depends on the set of earlier tokens only: permute them, same logits
    model = model64("none")
    tokens = torch.tensor([[1, 2, 3, 4, 5, 6]])
    shuffled = torch.tensor([[4, 2, 5, 1, 3, 6]])  # the last token, the query, stays
    with torch.no_grad():
        np.testing.assert_allclose(model(tokens)[0, -1].numpy(), model(shuffled)[0, -1].numpy(), atol=1e-12)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: TinyModel(5, 8, position="absolute"), ValueError, "position must be one of none, learned"),
    (lambda: TinyModel(5, 8, position="rope", n_heads=3), ValueError, "d_model must be a multiple of n_heads"),
    (lambda: TinyModel(5, 8, position="learned"), ValueError, "n_positions is the size of a learned table"),
    (lambda: TinyModel(5, 8, 16, position="rope"), ValueError, "n_positions is the size of a learned table"),
    (lambda: SelfAttentionHead(4, 4, rope=True, alibi_slope=0.5), ValueError, "choose RoPE or ALiBi"),
    (lambda: SelfAttentionHead(4, 4, alibi_slope=0.0), ValueError, "alibi_slope must be greater than 0"),
    (lambda: with_ladder(TinyModel(5, 8, position="none"), [1.0]), ValueError, "only a RoPE model"),
])
def test_bad_models_are_refused_by_name(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_with_ladder_copies_the_model_and_leaves_the_original_alone():
    model = TinyModel(5, 8, position="rope", n_heads=2)
    stretched = with_ladder(model, scaling.position_interpolation(4, 2.0), 1.5)
    assert all(head.frequencies is None and head.qk_scale == 1.0 for head in model.heads)
    assert all(head.qk_scale == 1.5 for head in stretched.heads)
    torch.testing.assert_close(stretched.tokens.weight, model.tokens.weight)


# ---- the copy task, the learned table, a seeded run ----


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
    assert claims.untrained_rows_untouched(first).holds
    assert not claims.untrained_rows_untouched(replace(first, untrained_row_change=1e-7)).holds
    assert len(first.table()) == 8 and first.table()[0][0] == "NoPE"


def test_at_the_training_length_the_stretched_ladders_are_the_trained_model():
    # factor max(1, L'/L) = 1 at L' = L: interpolation and YaRN change nothing there
    result = short_run(seed=1)
    for name in ("RoPE + PI", "RoPE + YaRN"):
        assert result.accuracy[name][0] == result.accuracy["RoPE"][0]
