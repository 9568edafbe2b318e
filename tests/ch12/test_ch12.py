"""Chapter 12, *Sinks and stacks*: the settings the chapter computes with are transformers' defaults, GPT-OSS's
sink logits act as the chapter's theorem says, and the hybrid stacks rotate where the chapter says they do
(modules built from small configurations; no weights are downloaded); the retrieval experiment hides its needle
where it says and counts a needle found as it says."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from transformers import Cohere2Config, GptOssConfig, KimiLinearConfig, Qwen3NextConfig
from transformers.models.cohere2.modeling_cohere2 import Cohere2Attention, Cohere2RotaryEmbedding
from transformers.models.gpt_oss.modeling_gpt_oss import GptOssAttention, eager_attention_forward
from transformers.models.kimi_linear.modeling_kimi_linear import KimiLinearAttention
from transformers.models.qwen3_next.modeling_qwen3_next import Qwen3NextRotaryEmbedding

from posenc import scaling
from posenc.book import ch12
from posenc.book.ch12 import COHERE2, GPT_OSS, KIMI_LINEAR, QWEN3_NEXT
from posenc.mixed_layers import every_nth_layer
from posenc.sinks import sink_weights
from posenc.torch_nn import TinyModel


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


@pytest.mark.parametrize("task", ch12.RETRIEVAL_TASKS)
def test_a_needle_batch_hides_one_needle_and_asks_for_it_last(task):
    tokens, targets, at = ch12.needle_batch(task, 50, 12, torch.Generator().manual_seed(0))
    rows = torch.arange(50)
    assert (targets[:, :-1] == -100).all() and torch.equal(targets[:, -1], tokens[rows, at])
    assert at.min() >= 1 and at.max() <= 10
    marked = tokens >= ch12.WORDS
    if task == "passkey":   # the answer is the one marked token; the question is a token of its own
        assert (tokens[:, -1] == ch12.QUESTION).all() and marked[rows, at].all() and (marked.sum(1) == 2).all()
    else:                   # the key comes just before the answer, a word, and the question repeats the key
        assert torch.equal(tokens[:, -1], tokens[rows, at - 1]) and marked[rows, at - 1].all()
        assert (tokens[rows, at] < ch12.WORDS).all() and (marked.sum(1) == 2).all()


def test_a_needle_batch_refuses_a_depth_outside_the_haystack():
    with pytest.raises(ValueError, match="depths must be 2 positions between 1 and 6"):
        ch12.needle_batch("passkey", 2, 8, torch.Generator(), depths=[3, 7])


def test_a_needle_is_found_when_a_head_gives_it_half_the_questions_weight():
    """A one-head model whose question asks for the marked tokens: its weight goes to the passkey (found); with the
    query switched off it is spread evenly over the input (not found)."""
    model = TinyModel(ch12.QUESTION + 1, 2, position="none").double()
    with torch.no_grad():
        model.tokens.weight.zero_()
        model.tokens.weight[ch12.WORDS:ch12.QUESTION, 1] = 4.0   # marked tokens along e_1, the question along e_0
        model.tokens.weight[ch12.QUESTION, 0] = 4.0
        model.head.w_q.weight.copy_(torch.tensor([[0.0, 0.0], [1.0, 0.0]]))   # the question's query is 4 e_1
        model.head.w_k.weight.copy_(torch.eye(2))
    tokens, targets, at = ch12.needle_batch("passkey", 20, 16, torch.Generator().manual_seed(1))
    assert ch12._answers(model, tokens, targets, at)[1].all()
    with torch.no_grad():
        model.head.w_q.weight.zero_()
    assert not ch12._answers(model, tokens, targets, at)[1].any()


def test_the_retrieval_experiment_accounts_for_every_question():
    result = ch12.retrieval_experiment(lengths=(8, 16), train_length=8, seeds=(0,), steps={"passkey": 2,
                                                                                         "key-value": 2})
    for task in ch12.RETRIEVAL_TASKS:
        for method in ch12.RETRIEVAL_METHODS:
            assert result.correct[task][method][16].shape == (1, 2 * 14)
            shares = result.outcomes(task, method, 16)
            np.testing.assert_allclose(shares.sum(axis=1), 1.0)
            np.testing.assert_allclose(shares[:, 0], result.accuracy(task, method)[:, 1])
    for method in ch12.RESCALED:   # at the trained length the ladders are the trained one
        np.testing.assert_array_equal(result.correct["key-value"][method][8], result.correct["key-value"]["RoPE"][8])


def test_every_rescaled_model_runs_the_ladder_its_name_says():
    model = TinyModel(ch12.QUESTION + 1, 16, position="rope", n_heads=2, n_layers=2)
    rescaled = ch12._rescaled(model, 4.0, 16)
    expected = {"RoPE + PI": (scaling.position_interpolation(8, 4.0), 1.0),
                "RoPE + NTK-aware": (scaling.ntk_aware(8, 4.0), 1.0),
                "RoPE + YaRN": (scaling.yarn(8, 4.0, 16), scaling.yarn_attention_scale(4.0))}
    assert sorted(rescaled) == sorted(ch12.RESCALED) == sorted(expected)
    for name, (ladder, scale) in expected.items():
        heads = [head for layer in rescaled[name].layers for head in layer]
        assert len(heads) == 4 and all(head.qk_scale == scale for head in heads)
        for head in heads:
            np.testing.assert_array_equal(head.frequencies, ladder)
    assert all(head.frequencies is None for layer in model.layers for head in layer)   # the trained model untouched
