"""Chapter 8, *Serving RoPE*: what its page says of Hugging Face transformers, checked on transformers itself
(positions of a padded batch, cosines in a bfloat16 model, converting a checkpoint between the two layouts)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from transformers import GenerationMixin, LlamaConfig, Qwen2Config, Qwen3Config
from transformers.models.deepseek_v32 import modeling_deepseek_v32 as deepseek_v32
from transformers.models.deepseek_v32.configuration_deepseek_v32 import DeepseekV32Config
from transformers.models.deepseek_v32.modeling_deepseek_v32 import DeepseekV32Indexer, DeepseekV32RotaryEmbedding
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
from transformers.models.qwen2.modeling_qwen2 import Qwen2Attention, Qwen2RotaryEmbedding
from transformers.models.qwen3.modeling_qwen3 import Qwen3Attention, Qwen3RotaryEmbedding

from posenc.decoding import positions_from_mask
from posenc.rotary import apply_rope, interleaved_to_half, interleaved_to_half_rows

RMS_EPS = 1e-6  # QK-norm's epsilon, in the oracle and in Qwen3's config


@given(rows=st.lists(st.tuples(st.integers(0, 6), st.integers(1, 6)), min_size=1, max_size=4))
def test_transformers_generate_puts_pads_and_tokens_where_positions_from_mask_does(rows):
    """transformers 5's generate (``_prepare_position_ids_for_generation``, which never reads ``self``): pads at 0."""
    width = max(n_pad + n_real for n_pad, n_real in rows)
    mask = np.array([[0] * (width - n_real) + [1] * n_real for _, n_real in rows])
    ids = torch.zeros(mask.shape, dtype=torch.long)
    by_transformers = GenerationMixin._prepare_position_ids_for_generation(None, ids,
                                                                           {"attention_mask": torch.from_numpy(mask)})
    np.testing.assert_array_equal(by_transformers.numpy(), positions_from_mask(mask))


def test_hugging_face_casts_cosines_computed_in_float32_to_the_models_format():
    """Llama's rotary embedding in a bfloat16 model returns its float32 cosines and sines rounded to bfloat16:
    nothing before that final cast runs in bfloat16 (angles in bfloat16 would miss by up to 2)."""
    d, base, n = 128, 500_000.0, 8192
    config = LlamaConfig(hidden_size=d, num_attention_heads=1, head_dim=d,
                         rope_parameters={"rope_type": "default", "rope_theta": base})
    embedding, positions = LlamaRotaryEmbedding(config), torch.arange(n)[None]
    in_bfloat16 = embedding(torch.zeros(1, n, d, dtype=torch.bfloat16), positions)
    in_float32 = embedding(torch.zeros(1, n, d), positions)
    for low, high in zip(in_bfloat16, in_float32, strict=True):
        assert low.dtype == torch.bfloat16 and torch.equal(low, high.bfloat16())
    exact = np.cos(np.outer(np.arange(n), base ** (-np.arange(0, d, 2) / d)))
    assert np.abs(in_float32[0][0, :, : d // 2].double().numpy() - exact).max() < 1e-3


@pytest.mark.verifies("thm-checkpoint-conversion")
def test_meta_to_hugging_face_row_permutation_matches_the_conversion_scripts_reshape():
    # Hugging Face's convert_llama_weights_to_hf: w.view(heads, d/2, 2, in).transpose(1, 2).reshape(heads*d, in)
    heads, head_dim, d_in = 3, 8, 5
    w = torch.arange(heads * head_dim * d_in, dtype=torch.float64).reshape(heads * head_dim, d_in)
    converted = w.view(heads, head_dim // 2, 2, d_in).transpose(1, 2).reshape(heads * head_dim, d_in)
    torch.testing.assert_close(w[torch.from_numpy(interleaved_to_half_rows(heads, head_dim))], converted)


def hugging_face_attention_weights(x, w_q, b_q, w_k, b_k, heads: int, kv_heads: int, head_dim: int,
                                   gains=None) -> np.ndarray:
    """Hugging Face's attention layer (half layout, q/k/v biases, grouped-query heads) of Qwen2, or of Qwen3
    with QK-norm when ``gains`` (the q and k norms' weights, each of width ``head_dim``) are given: its causal
    attention weights, shape (heads, n, n), for tokens ``x`` (n, d_model) and the given q and k projections."""
    shape = {"hidden_size": x.shape[1], "num_attention_heads": heads, "num_key_value_heads": kv_heads,
             "head_dim": head_dim, "rope_parameters": {"rope_type": "default", "rope_theta": 10_000.0}}
    if gains is None:
        config, attention, rotary = Qwen2Config(**shape), Qwen2Attention, Qwen2RotaryEmbedding
    else:
        config = Qwen3Config(**shape, attention_bias=True, rms_norm_eps=RMS_EPS)
        attention, rotary = Qwen3Attention, Qwen3RotaryEmbedding
    config._attn_implementation = "eager"
    layer = attention(config, layer_idx=0).double()
    n = x.shape[0]
    with torch.no_grad():
        for linear, w, b in ((layer.q_proj, w_q, b_q), (layer.k_proj, w_k, b_k)):
            linear.weight.copy_(torch.from_numpy(w))
            linear.bias.copy_(torch.from_numpy(b))
        for norm, g in zip((getattr(layer, "q_norm", None), getattr(layer, "k_norm", None)), gains or (), strict=False):
            norm.weight.copy_(torch.from_numpy(g))
        hidden = torch.from_numpy(x)[None]
        cos_sin = rotary(config)(hidden, torch.arange(n)[None])
        mask = torch.full((n, n), float("-inf"), dtype=torch.float64).triu(1)[None, None]
        return layer(hidden, cos_sin, mask)[1][0].numpy()


def interleaved_attention_weights(x, w_q, b_q, w_k, b_k, heads: int, kv_heads: int, head_dim: int,
                                  gains=None) -> np.ndarray:
    """Causal softmax of interleaved RoPE scores (Meta's layout), query head h reading key head h // group; with
    ``gains``, each head's query and key first pass through RMS normalisation times the gain (QK-norm)."""
    n = x.shape[0]
    q = (x @ w_q.T + b_q).reshape(n, heads, head_dim).transpose(1, 0, 2)
    k = (x @ w_k.T + b_k).reshape(n, kv_heads, head_dim).transpose(1, 0, 2)
    if gains is not None:
        q, k = (g * u / np.sqrt(np.mean(u**2, axis=-1, keepdims=True) + RMS_EPS) for g, u in zip(gains, (q, k),
                                                                                                 strict=True))
    rotated_q, rotated_k = apply_rope(q), np.repeat(apply_rope(k), heads // kv_heads, axis=0)
    s = rotated_q @ rotated_k.transpose(0, 2, 1) / np.sqrt(head_dim)
    s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
    weights = np.exp(s - s.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)


def random_layer(heads: int, kv_heads: int, head_dim: int, d_model: int, n: int):
    """Tokens, q and k projections with biases, and QK-norm gains of width ``head_dim``, all random."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, d_model))
    w_q, w_k = rng.standard_normal((heads * head_dim, d_model)), rng.standard_normal((kv_heads * head_dim, d_model))
    b_q, b_k = rng.standard_normal(heads * head_dim), rng.standard_normal(kv_heads * head_dim)
    return x, w_q, b_q, w_k, b_k, tuple(rng.uniform(0.5, 2.0, (2, head_dim)))


@pytest.mark.verifies("thm-checkpoint-conversion")
@pytest.mark.parametrize("qk_norm", [False, True], ids=["qwen2-biases-grouped-heads", "qwen3-qk-norm"])
def test_qwen_attention_on_permuted_weights_gives_the_interleaved_weights(qk_norm):
    """Each layer fails when what it adds is left unpermuted: Qwen2's biases, Qwen3's gains."""
    shape = (4, 2, 16)
    x, w_q, b_q, w_k, b_k, gains = random_layer(*shape, d_model=32, n=9)
    gains = gains if qk_norm else None
    q_rows, k_rows = interleaved_to_half_rows(*shape[::2]), interleaved_to_half_rows(*shape[1:])
    expected = interleaved_attention_weights(x, w_q, b_q, w_k, b_k, *shape, gains=gains)
    permuted = (x, w_q[q_rows], b_q[q_rows], w_k[k_rows], b_k[k_rows], *shape)
    within = interleaved_to_half(shape[2])
    converted = hugging_face_attention_weights(*permuted, gains=gains and tuple(g[within] for g in gains))
    np.testing.assert_allclose(converted, expected, atol=1e-5)  # RMS norm and cos, sin in float32
    left = (hugging_face_attention_weights(*permuted, gains=gains) if qk_norm
            else hugging_face_attention_weights(x, w_q[q_rows], b_q, w_k[k_rows], b_k, *shape))
    assert np.abs(left - expected).max() > 0.01


# ---- DeepSeek-V3.2: the indexer turns in the half layout, the main attention in the interleaved one ----


def deepseek_v32_config(**shape) -> DeepseekV32Config:
    return DeepseekV32Config(**shape, rope_parameters={"rope_type": "default", "rope_theta": 10_000.0})


@pytest.mark.parametrize("offset", [0, 1000])
def test_deepseek_v32_rotary_functions_are_the_two_layouts_of_apply_rope(offset):
    """On random queries and keys, with deepseek_v32's own cosines and sines: the indexer's
    ``apply_rotary_pos_emb`` is ``apply_rope(layout="half")``; the main attention's
    ``apply_rotary_pos_emb_interleave`` is interleaved ``apply_rope`` with each turned pair written back to
    coordinates j and j + d/2 (``[..., interleaved_to_half(d)]``): one permutation of q's and k's coordinates, which
    changes no score."""
    config = deepseek_v32_config()
    d, positions = config.qk_rope_head_dim, offset + np.arange(8)
    generator = torch.Generator().manual_seed(offset)
    q, k = torch.randn(2, 1, 3, positions.size, d, generator=generator)  # each (batch, heads, seq, d)
    cos, sin = DeepseekV32RotaryEmbedding(config)(q, torch.from_numpy(positions)[None])
    atol = 4 * (1 + positions.max()) * 2.0**-24 * float(max(q.abs().max(), k.abs().max())) + 1e-6  # float32 angles
    indexer_q, indexer_k = deepseek_v32.apply_rotary_pos_emb(q, k, cos, sin)
    attention_q, attention_k = deepseek_v32.apply_rotary_pos_emb_interleave(q, k, cos, sin)
    reorder = torch.from_numpy(interleaved_to_half(d))
    for x, by_indexer, by_attention in ((q, indexer_q, attention_q), (k, indexer_k, attention_k)):
        torch.testing.assert_close(by_indexer, apply_rope(x, positions, layout="half"), rtol=0, atol=atol)
        torch.testing.assert_close(by_attention, apply_rope(x, positions)[..., reorder], rtol=0, atol=atol)
        assert (by_indexer - by_attention).abs().max() > 0.1  # the two layouts turn different coordinates together


def index_scores(layer, x, q_resid, positions, layout: str) -> np.ndarray:
    """The indexer's score of query s for key t, shape (seq, seq), recomputed in numpy with the rotary part
    (the first ``qk_rope_head_dim`` coordinates of each head) turned by ``apply_rope`` in ``layout``:
    sum over heads h of w[s, h] / sqrt(H) * relu(q[s, h] . k[t] / sqrt(D)), keys after s masked."""
    w_q, w_k, w_heads = (m.weight.detach().double().numpy() for m in (layer.wq_b, layer.wk, layer.weights_proj))
    n, heads, width, r = x.shape[0], layer.n_heads, layer.head_dim, layer.qk_rope_head_dim
    q = (q_resid @ w_q.T).reshape(n, heads, width).transpose(1, 0, 2)  # (heads, seq, D)
    k = x @ w_k.T
    k = (k - k.mean(-1, keepdims=True)) / np.sqrt(k.var(-1, keepdims=True) + layer.k_norm.eps)  # LayerNorm, gain 1
    for u in (q, k):  # the rotary part comes first in the indexer's heads
        u[..., :r] = apply_rope(u[..., :r], positions, layout=layout)
    per_head = np.maximum(q @ k.T / np.sqrt(width), 0.0)
    scores = np.einsum("sh,hst->st", x @ w_heads.T / np.sqrt(heads), per_head)
    return np.where(np.tril(np.ones((n, n), bool)), scores, -np.inf)


def test_deepseek_v32_indexer_selects_the_top_keys_of_half_layout_scores_not_interleaved_ones():
    """transformers' DeepseekV32Indexer (random weights) returns, for every query with more past keys than it
    keeps, keys whose half-layout scores are at least those of every key it leaves out; with the rotary part
    turned in the interleaved layout instead, some query's choice is not the top of those scores."""
    config = deepseek_v32_config(hidden_size=32, q_lora_rank=16, index_n_heads=4, index_head_dim=32,
                                 qk_rope_head_dim=16, index_topk=4)
    torch.manual_seed(0)
    layer = DeepseekV32Indexer(config, layer_idx=0).double()
    n, positions = 24, np.arange(24)
    rng = np.random.default_rng(0)
    x, q_resid = rng.standard_normal((n, 32)), rng.standard_normal((n, 16))  # tokens, and the latent queries
    cos, sin = DeepseekV32RotaryEmbedding(config)(torch.zeros(1, n, 32, dtype=torch.float64), torch.arange(n)[None])
    causal = torch.ones(n, n, dtype=torch.bool).tril()[None]
    chosen = layer(torch.from_numpy(x)[None], torch.from_numpy(q_resid)[None], (cos, sin), causal,
                   torch.arange(n)[None])[0].numpy()

    def worst_margin(scores):  # over queries with more past keys than topk: chosen minimum minus best left out
        margins = []
        for s in range(config.index_topk, n):
            left_out = np.setdiff1d(np.arange(s + 1), chosen[s])
            margins.append(scores[s, chosen[s]].min() - scores[s, left_out].max())
        return min(margins)

    assert worst_margin(index_scores(layer, x, q_resid, positions, "half")) > -1e-6  # float32 angles
    assert worst_margin(index_scores(layer, x, q_resid, positions, "interleaved")) < -1e-3
