"""Torch modules: the same numbers as numpy (the tiny model with each position scheme and a rescaled ladder, head by
head and layer by layer), and a learned table that refuses positions it has no row for."""

import numpy as np
import pytest
import torch

from posenc import attention as att
from posenc import scaling
from posenc.alibi import alibi_bias, alibi_slopes
from posenc.rotary import apply_rope
from posenc.sinusoidal import sinusoidal_table
from posenc.torch_nn import LearnedPositions, TinyModel, _layer, with_ladder


def test_learned_positions_hand_out_the_rows_of_the_table_and_refuse_a_position_without_one():
    table = LearnedPositions(10, 4)
    np.testing.assert_array_equal(table(3).detach().numpy(), table.table.weight[:3].detach().numpy())
    assert table(10).shape == (10, 4)
    with pytest.raises(IndexError, match="no row for position 10; the table has rows 0..9"):
        table(11)


def model64(position: str, n_positions=None, n_layers: int = 1) -> TinyModel:
    torch.manual_seed(0)
    return TinyModel(7, 8, n_positions, position=position, n_heads=2, n_layers=n_layers).double()


def reference(model: TinyModel, tokens: np.ndarray, added, rotate, slopes) -> tuple[list, np.ndarray]:
    """The model's forward pass written with numpy: embedding (+ ``added`` positions), then for each layer its causal
    heads (queries and keys turned by ``rotate``, ALiBi's bias for a slope) added to the residual stream, then the
    read-out. Returns the attention weights of every head of every layer, and the logits."""
    def weight(linear):
        return linear.weight.detach().numpy().T
    x = model.tokens.weight.detach().numpy()[tokens] + (0 if added is None else added)
    n, weights = len(tokens), []
    for layer in model.layers:
        weights.append([])
        for head, slope in zip(layer, slopes, strict=True):
            q, k = (rotate(x @ weight(w)) for w in (head.w_q, head.w_k))
            scores = q @ k.T / np.sqrt(q.shape[-1]) + (0 if slope is None else alibi_bias(n, [slope])[0])
            weights[-1].append(att.softmax(np.where(att.causal_mask(n), scores, -np.inf)))
        x = x + np.concatenate([w @ x @ weight(head.w_v) for w, head in zip(weights[-1], layer, strict=True)], axis=-1)
    return weights, x @ weight(model.readout) + model.readout.bias.detach().numpy()


@pytest.mark.parametrize("n_layers", [1, 3])
@pytest.mark.parametrize("position", ["none", "learned", "sinusoidal", "rope", "rope with a ladder", "alibi"])
def test_each_position_scheme_gives_the_numpy_numbers_head_by_head_and_with_its_heads_at_once(position, n_layers):
    """Each head alone (``head.weights``, ``head(x)``) and all of a layer's heads at once (``_layer``, which the model
    runs) against numpy; with a ladder (chapters 9 and 12), every head of every layer turns by it and scales its
    queries and keys, in a copy: the model given to with_ladder is not changed."""
    scheme = position.split()[0]
    model = model64(scheme, n_positions=12 if scheme == "learned" else None, n_layers=n_layers)
    tokens = np.random.default_rng(2).integers(0, 7, 9)
    positions, scale = np.arange(9.0), 1.0
    if position == "rope with a ladder":
        original, model = model, with_ladder(model, scaling.position_interpolation(4, 2.0), 1.5)
        assert all(head.frequencies is None and head.qk_scale == 1.0 for layer in original.layers for head in layer)
        positions, scale = positions / 2.0, 1.5  # PI at factor 2: RoPE at the positions halved

    def rotate(t):
        return scale * apply_rope(t, positions) if scheme == "rope" else t

    added = (model.positions.table.weight.detach().numpy()[:9] if scheme == "learned"
             else sinusoidal_table(9, 8) if scheme == "sinusoidal" else None)
    slopes = list(alibi_slopes(2)) if scheme == "alibi" else [None, None]
    weights, logits = reference(model, tokens, added, rotate, slopes)
    with torch.no_grad():
        np.testing.assert_allclose(model(torch.from_numpy(tokens)[None])[0].numpy(), logits, atol=1e-12)
        stream = model.residual(torch.from_numpy(tokens)[None])
        for x, layer, expected in zip(stream[:-1], model.layers, weights, strict=True):
            for head, want in zip(layer, expected, strict=True):
                np.testing.assert_allclose(head.weights(x)[0].numpy(), want, atol=1e-12)
            torch.testing.assert_close(_layer(layer, x), torch.cat([head(x) for head in layer], dim=-1),
                                       rtol=0, atol=1e-12)
