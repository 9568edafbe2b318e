"""Chapter 12, *Sinks and stacks*: the settings the page computes with are transformers' defaults, GPT-OSS's
sink logits act as the chapter's theorem says, and the hybrid stacks rotate where the chapter says they do
(modules built from small configurations; no weights are downloaded)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from conftest import page_setting
from transformers import Cohere2Config, GptOssConfig, KimiLinearConfig, Qwen3NextConfig
from transformers.models.cohere2.modeling_cohere2 import Cohere2Attention, Cohere2RotaryEmbedding
from transformers.models.gpt_oss.modeling_gpt_oss import GptOssAttention, eager_attention_forward
from transformers.models.kimi_linear.modeling_kimi_linear import KimiLinearAttention
from transformers.models.qwen3_next.modeling_qwen3_next import Qwen3NextRotaryEmbedding

from posenc.mixed_layers import every_nth_layer
from posenc.sinks import sink_weights

GPT_OSS, COHERE2, QWEN3_NEXT, KIMI_LINEAR = (page_setting("12_sinks_and_stacks", name)
                                          for name in ("oss", "cohere", "qwen", "kimi"))


def kinds(config, odd_one_out: str) -> np.ndarray:
    return np.array([kind == odd_one_out for kind in config.layer_types])


def settings(config: dict) -> tuple:
    """The values of a setting dict but its layer pattern (``every``), which the next test compares."""
    return tuple(value for key, value in config.items() if key != "every")


def test_the_chapters_settings_are_transformers_defaults():
    gpt_oss, cohere, qwen, kimi = GptOssConfig(), Cohere2Config(), Qwen3NextConfig(), KimiLinearConfig()
    yarn = gpt_oss.rope_parameters
    assert (gpt_oss.num_hidden_layers, gpt_oss.sliding_window, gpt_oss.head_dim, yarn["rope_theta"], yarn["factor"],
            yarn["original_max_position_embeddings"], yarn["beta_fast"], yarn["beta_slow"],
            yarn["truncate"]) == tuple(GPT_OSS.values())
    assert (cohere.num_hidden_layers, cohere.sliding_window, cohere.head_dim,
            cohere.rope_parameters["rope_theta"]) == settings(COHERE2)
    assert (qwen.num_hidden_layers, qwen.head_dim, qwen.rope_parameters["partial_rotary_factor"],
            qwen.rope_parameters["rope_theta"]) == settings(QWEN3_NEXT)
    assert (kimi.num_hidden_layers, kimi.qk_nope_head_dim, kimi.qk_rope_head_dim) == tuple(KIMI_LINEAR.values())


def test_the_layer_patterns_are_transformers_default_layer_types():
    gpt_oss, cohere, qwen, kimi = GptOssConfig(), Cohere2Config(), Qwen3NextConfig(), KimiLinearConfig()
    assert np.array_equal(kinds(gpt_oss, "full_attention"), every_nth_layer(GPT_OSS["n_layers"], 2))
    assert set(gpt_oss.layer_types) == {"sliding_attention", "full_attention"}
    assert np.array_equal(kinds(cohere, "full_attention"), every_nth_layer(COHERE2["n_layers"], COHERE2["every"]))
    assert set(cohere.layer_types) == {"sliding_attention", "full_attention"}
    assert np.array_equal(kinds(qwen, "full_attention"), every_nth_layer(QWEN3_NEXT["n_layers"], QWEN3_NEXT["every"]))
    assert set(qwen.layer_types) == {"linear_attention", "full_attention"}
    # Kimi Linear's default: layer l (from 0) is full attention when l is a positive multiple of 4
    assert np.flatnonzero(kinds(kimi, "full_attention")).tolist() == list(range(4, KIMI_LINEAR["n_layers"], 4))


def test_qwen3_next_rotates_a_quarter_of_each_head():
    config = Qwen3NextConfig(hidden_size=64, num_attention_heads=2, head_dim=32)
    rotary = Qwen3NextRotaryEmbedding(config)
    assert len(rotary.inv_freq) * 2 == int(32 * QWEN3_NEXT["partial_rotary_factor"])  # r/2 hands of a head of 32
    full = Qwen3NextConfig()
    assert int(full.head_dim * full.rope_parameters["partial_rotary_factor"]) == 64


def equivariance_gap(layer, x, order, *extra) -> float:
    """max |layer(PX) - P layer(X)| with no mask."""
    with torch.no_grad():
        return (layer(x[:, order], *extra, None)[0] - layer(x, *extra, None)[0][:, order]).abs().max().item()


def test_only_the_sliding_layers_of_cohere2_and_no_layer_of_kimi_linear_attention_rotate():
    """A full-attention layer of cohere2 and Kimi Linear's attention are NoPE: without a mask they
    are permutation equivariant, whatever positions they are given; a sliding layer of cohere2 is not."""
    torch.manual_seed(0)
    x, order = torch.randn(1, 6, 64, dtype=torch.float64), torch.roll(torch.arange(6), 1)
    config = Cohere2Config(hidden_size=64, num_attention_heads=4, num_key_value_heads=4, num_hidden_layers=4)
    config._attn_implementation = "eager"
    cos, sin = (t.double() for t in Cohere2RotaryEmbedding(config)(x, torch.arange(6)[None]))
    gaps = {kind: equivariance_gap(Cohere2Attention(config, i).double(), x, order, (cos, sin))
            for i, kind in enumerate(config.layer_types) if i in (0, 3)}
    assert gaps["full_attention"] < 1e-6 < 1e-2 < gaps["sliding_attention"], gaps  # softmax in float32
    kimi = KimiLinearConfig(hidden_size=64, num_attention_heads=4, num_key_value_heads=4, num_hidden_layers=5,
                            kv_lora_rank=16, qk_rope_head_dim=8, qk_nope_head_dim=8, v_head_dim=8)
    kimi._attn_implementation = "eager"
    assert equivariance_gap(KimiLinearAttention(kimi, 4).double(), x, order) < 1e-6


@pytest.mark.verifies("thm-sink-weights")
def test_gpt_oss_attention_weights_are_the_softmax_with_a_sink_column_dropped():
    config = GptOssConfig(hidden_size=64, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                          num_hidden_layers=2)
    module = GptOssAttention(config, 0).double()
    torch.manual_seed(0)
    with torch.no_grad():
        module.sinks.copy_(torch.tensor([-2.0, 0.0, 1.5, 4.0]))
    q, k, v = torch.randn(1, 4, 7, 16, dtype=torch.float64), *torch.randn(2, 1, 2, 7, 16, dtype=torch.float64)
    mask = torch.full((7, 7), torch.finfo(torch.float64).min, dtype=torch.float64).triu(1)[None, None]
    with torch.no_grad():
        output, weights = eager_attention_forward(module, q, k, v, mask, scaling=0.25)
    k_all, v_all = k.repeat_interleave(2, dim=1), v.repeat_interleave(2, dim=1)  # 2 query heads per key head
    scores = (q @ k_all.transpose(-1, -2) * 0.25 + mask)[0].numpy()
    expected = sink_weights(scores, module.sinks.detach().numpy()[:, None])
    np.testing.assert_allclose(weights[0].numpy(), expected, rtol=1e-12, atol=1e-300)
    plain = torch.softmax(q @ k_all.transpose(-1, -2) * 0.25 + mask, dim=-1)[0].numpy()
    total = expected.sum(-1)
    assert np.all(total < 1)  # the real keys keep less than the whole weight ...
    np.testing.assert_allclose(expected / total[..., None], plain, rtol=1e-12, atol=1e-300)  # ... in the same ratios
    # ... and the output is ordinary attention's, multiplied by the real keys' share
    np.testing.assert_allclose(output[0].transpose(0, 1).numpy(), total[..., None] * (plain @ v_all[0].numpy()),
                               rtol=1e-10)
