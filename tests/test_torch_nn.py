"""Torch modules: the same numbers as numpy (a causal attention head with RoPE, a rescaled ladder or ALiBi's bias;
the tiny model with each position scheme), and a learned table that refuses positions it has no row for."""

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from posenc import attention as att
from posenc import scaling
from posenc.alibi import alibi_bias, alibi_slopes
from posenc.rotary import apply_rope
from posenc.sinusoidal import sinusoidal_table
from posenc.torch_nn import LearnedPositions, SelfAttentionHead, TinyModel, _layer, with_ladder

sizes = st.tuples(st.integers(1, 12), st.integers(1, 10), st.integers(1, 8).map(lambda h: 2 * h))  # n, d_model, d
seed = st.integers(0, 1000)
widths = st.integers(1, 6).map(lambda h: 2 * h)


def random_head(n: int, d_model: int, d_head: int, seed: int):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d_model))
    w_q, w_k, w_v = (rng.standard_normal((d_model, d_head)) / np.sqrt(d_model) for _ in range(3))
    return x, w_q, w_k, w_v


def run(module, x: np.ndarray) -> np.ndarray:
    with torch.no_grad():
        return module(torch.from_numpy(x)).numpy()


@given(shape=sizes, seed=st.integers(0, 1000))
def test_rope_head_gives_the_numpy_numbers(shape, seed):
    x, w_q, w_k, w_v = random_head(*shape, seed)
    head = SelfAttentionHead.from_matrices(w_q, w_k, w_v, rope=True)
    expected = att.attention(apply_rope(x @ w_q), apply_rope(x @ w_k), x @ w_v, att.causal_mask(len(x)))
    np.testing.assert_allclose(run(head, x), expected, atol=1e-11)


@given(shape=sizes, seed=st.integers(0, 1000))
def test_a_heads_weights_are_the_causal_softmax_rows_it_averages_with(shape, seed):
    x, w_q, w_k, w_v = random_head(*shape, seed)
    head = SelfAttentionHead.from_matrices(w_q, w_k, w_v)
    weights = run(head.weights, x)
    n = len(x)
    scores = np.where(att.causal_mask(n), (x @ w_q) @ (x @ w_k).T / np.sqrt(w_q.shape[1]), -np.inf)
    np.testing.assert_allclose(weights, att.softmax(scores), atol=1e-12)
    np.testing.assert_allclose(run(head, x), weights @ (x @ w_v), atol=1e-12)


def test_learned_positions_hand_out_the_rows_of_the_table_and_refuse_a_position_without_one():
    table = LearnedPositions(10, 4)
    np.testing.assert_array_equal(table(3).detach().numpy(), table.table.weight[:3].detach().numpy())
    assert table(10).shape == (10, 4)
    with pytest.raises(IndexError, match="no row for position 10; the table has rows 0..9"):
        table(11)


@given(n=st.integers(1, 10), d=widths, slope=st.floats(1e-3, 2.0), seed=seed)
def test_an_alibi_head_adds_alibi_bias_to_the_causal_scores(n, d, slope, seed):
    x, w_q, w_k, w_v = random_head(n, 6, d, seed)
    head = SelfAttentionHead.from_matrices(w_q, w_k, w_v, alibi_slope=slope)
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
    np.testing.assert_allclose(run(head, x), att.attention(q, k, x @ w_v, att.causal_mask(n)), atol=1e-11)


def model64(position: str, n_heads: int = 2, n_positions=None, n_layers: int = 1) -> TinyModel:
    torch.manual_seed(0)
    return TinyModel(7, 8, n_positions, position=position, n_heads=n_heads, n_layers=n_layers).double()


def reference_logits(model: TinyModel, tokens: np.ndarray, added: np.ndarray | None, rope: bool, slopes) -> np.ndarray:
    """The model's forward pass written with numpy: embedding (+ positions), then for each layer its causal heads
    added to the residual stream, then the read-out."""
    def weight(linear):
        return linear.weight.detach().numpy().T
    x = model.tokens.weight.detach().numpy()[tokens] + (0 if added is None else added)
    n = len(tokens)
    for layer in model.layers:
        outputs = []
        for head, slope in zip(layer, slopes, strict=True):
            q, k, v = x @ weight(head.w_q), x @ weight(head.w_k), x @ weight(head.w_v)
            if rope:
                q, k = apply_rope(q), apply_rope(k)
            scores = q @ k.T / np.sqrt(q.shape[-1]) + (0 if slope is None else alibi_bias(n, [slope])[0])
            outputs.append(att.softmax(np.where(att.causal_mask(n), scores, -np.inf)) @ v)
        x = x + np.concatenate(outputs, axis=-1)
    return x @ weight(model.readout) + model.readout.bias.detach().numpy()


@pytest.mark.parametrize("n_layers", [1, 3])
@pytest.mark.parametrize("position", ["none", "learned", "sinusoidal", "rope", "alibi"])
def test_each_position_scheme_gives_the_numpy_numbers(position, n_layers):
    model = model64(position, n_positions=12 if position == "learned" else None, n_layers=n_layers)
    tokens = np.random.default_rng(2).integers(0, 7, 9)
    added = (model.positions.table.weight.detach().numpy()[:9] if position == "learned"
             else sinusoidal_table(9, 8) if position == "sinusoidal" else None)
    slopes = list(alibi_slopes(2)) if position == "alibi" else [None, None]
    with torch.no_grad():
        logits = model(torch.from_numpy(tokens)[None])[0].numpy()
    np.testing.assert_allclose(logits, reference_logits(model, tokens, added, position == "rope", slopes),
                               atol=1e-12)


def test_every_head_of_every_layer_of_a_model_with_a_ladder_turns_by_it():
    """A layer computes its heads at once (``_layer``) as each head alone would, and a head alone turns by its ladder
    (the head test above): so the rescaled models of chapters 9 and 12 run their ladders in every layer. The model
    given to with_ladder is copied, not changed."""
    original = model64("rope", n_layers=2)
    model = with_ladder(original, scaling.position_interpolation(4, 2.0), 1.5)
    assert all(head.frequencies is None and head.qk_scale == 1.0 for layer in original.layers for head in layer)
    torch.testing.assert_close(model.tokens.weight, original.tokens.weight)
    torch.manual_seed(0)
    stream = model.residual(torch.randint(7, (2, 12)))
    with torch.no_grad():
        for x, layer in zip(stream[:-1], model.layers, strict=True):
            torch.testing.assert_close(_layer(layer, x), torch.cat([head(x) for head in layer], dim=-1),
                                       rtol=0, atol=1e-12)
            assert all(head.frequencies is not None and head.qk_scale == 1.5 for head in layer)
