"""Stacks of mixed layers: which layers are the odd ones out, Llama 4's NoPE temperature, and the masks of
sliding-window and chunked attention, each against a second way of writing it and against transformers' code for
Llama 4, SmolLM3 and Gemma 3 (built from their configuration classes; no weights are downloaded)."""

import numpy as np
import pytest
import torch
from conftest import FLOAT32_LADDER
from hypothesis import given
from hypothesis import strategies as st
from transformers import Gemma3TextConfig, Llama4TextConfig, SmolLM3Config
from transformers.masking_utils import chunked_causal_mask_function, sliding_window_causal_mask_function
from transformers.models.gemma3.modeling_gemma3 import Gemma3RotaryEmbedding
from transformers.models.llama4.modeling_llama4 import Llama4TextAttention

from posenc.attention import softmax
from posenc.mixed_layers import chunk_mask, every_nth_layer, nope_temperature, window_mask
from posenc.scaling import position_interpolation
from posenc.sinusoidal import frequencies


@given(positions=st.lists(st.integers(0, 10**7), min_size=1, max_size=20), floor_scale=st.integers(2, 10_000),
       attn_scale=st.floats(0.0, 1.0))
def test_the_temperature_is_metas_reference_formula_and_never_falls(positions, floor_scale, attn_scale):
    m = torch.tensor(positions, dtype=torch.float64)
    meta = torch.log(torch.floor((m + 1.0) / floor_scale) + 1.0) * attn_scale + 1.0  # Llama 4's reference code
    tau = nope_temperature(positions, floor_scale, attn_scale)
    np.testing.assert_allclose(tau, meta.numpy(), rtol=1e-15)
    order = np.argsort(positions, kind="stable")
    assert np.all(np.diff(tau[order]) >= 0)


# ---- against transformers: Llama 4's and SmolLM3's NoPE layers, the masks, the temperature, Gemma 3's two ladders


@pytest.mark.parametrize("config_class", [Llama4TextConfig, SmolLM3Config])
@pytest.mark.parametrize(("layers", "every"), [(48, 4), (36, 4), (12, 3)])
def test_no_rope_layers_mark_the_layers_that_rotate_the_complement_of_every_nth(config_class, layers, every):
    config = config_class(num_hidden_layers=layers, no_rope_layer_interval=every)
    assert config.no_rope_layers == (~every_nth_layer(layers, every)).astype(int).tolist()


def test_llama4s_rotating_layers_are_chunked_and_its_nope_layers_see_everything():
    config = Llama4TextConfig()
    nope = every_nth_layer(config.num_hidden_layers, config.no_rope_layer_interval)
    assert config.layer_types == ["full_attention" if n else "chunked_attention" for n in nope]


def mask_from(function, n: int) -> np.ndarray:
    index = torch.arange(n)
    return function(0, 0, index[:, None], index[None, :]).numpy()


@given(n=st.integers(1, 40), size=st.integers(1, 50))
def test_window_and_chunk_masks_are_transformers(n, size):
    np.testing.assert_array_equal(window_mask(n, size), mask_from(sliding_window_causal_mask_function(size), n))
    chunked = chunked_causal_mask_function(size, torch.zeros(1, dtype=int))
    np.testing.assert_array_equal(chunk_mask(n, size), mask_from(chunked, n))


def test_nope_temperature_is_llama4s_attention():
    # A NoPE layer (layer 0 does not rotate) with a small floor_scale, so that the temperature moves within 12 tokens.
    config = Llama4TextConfig(hidden_size=8, num_attention_heads=2, num_key_value_heads=2, head_dim=4,
                              num_hidden_layers=1, no_rope_layers=[0], floor_scale=3, attn_scale=0.5,
                              attn_implementation="eager")
    torch.manual_seed(0)
    layer = Llama4TextAttention(config, layer_idx=0).double()
    n = 12
    x = torch.randn(1, n, 8, dtype=torch.float64)
    causal = torch.full((n, n), -torch.inf, dtype=torch.float64).triu(1)[None, None]
    _, weights = layer(x, position_embeddings=None, attention_mask=causal)
    with torch.no_grad():
        q = (x @ layer.q_proj.weight.T).view(n, 2, 4).transpose(0, 1).numpy()
        k = (x @ layer.k_proj.weight.T).view(n, 2, 4).transpose(0, 1).numpy()
    tau = nope_temperature(np.arange(n), floor_scale=3, attn_scale=0.5)
    ours = softmax(np.where(np.tri(n, dtype=bool), (tau[:, None] * q) @ k.transpose(0, 2, 1) / 2.0, -np.inf))
    np.testing.assert_allclose(ours, weights[0].detach().numpy(), atol=1e-12)
    assert tau[0] == 1.0 and tau[-1] > 1.5  # the temperature did move


def test_gemma3s_local_and_global_ladders_and_layer_order_are_transformers():
    d, window, local_base, global_base, factor = 256, 1024, 10_000.0, 1_000_000.0, 8.0
    config = Gemma3TextConfig(head_dim=d, sliding_window=window, num_hidden_layers=12,
                              rope_parameters={"sliding_attention": {"rope_type": "default", "rope_theta": local_base},
                                               "full_attention": {"rope_type": "linear", "factor": factor,
                                                                  "rope_theta": global_base}})
    rotary = Gemma3RotaryEmbedding(config)
    np.testing.assert_allclose(frequencies(d, local_base), rotary.sliding_attention_inv_freq.double().numpy(),
                               rtol=FLOAT32_LADDER)
    np.testing.assert_allclose(position_interpolation(d, factor, global_base),
                               rotary.full_attention_inv_freq.double().numpy(), rtol=FLOAT32_LADDER)
    assert config.layer_types == ["full_attention" if g else "sliding_attention" for g in every_nth_layer(12, 6)]
