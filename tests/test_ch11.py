"""Chapter 11, *RoPE in current models*: its claims under many inputs, and posenc against the transformers code
that runs each model: Phi-3's LongRoPE, Llama 4's and SmolLM3's NoPE layers and temperature, Gemma 3's two
ladders and sliding window, Qwen3-VL's interleaved M-RoPE, DeepSeek-V3's latent attention. No weights are
downloaded: every model is built in code from its configuration class."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from test_rotary_axes import interleavable_sections
from transformers import (
    DeepseekV3Config,
    Gemma3TextConfig,
    Llama4TextConfig,
    Phi3Config,
    Qwen2VLTextConfig,
    Qwen3VLTextConfig,
    SmolLM3Config,
)
from transformers.masking_utils import chunked_causal_mask_function, sliding_window_causal_mask_function
from transformers.modeling_rope_utils import _compute_longrope_parameters
from transformers.models.deepseek_v3.modeling_deepseek_v3 import DeepseekV3Attention, DeepseekV3RotaryEmbedding
from transformers.models.gemma3.modeling_gemma3 import Gemma3RotaryEmbedding
from transformers.models.llama4.modeling_llama4 import Llama4TextAttention
from transformers.models.phi3.modeling_phi3 import Phi3RotaryEmbedding
from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLRotaryEmbedding
from transformers.models.qwen3_vl.modeling_qwen3_vl import Qwen3VLTextRotaryEmbedding
from transformers.models.qwen3_vl.modeling_qwen3_vl import apply_rotary_pos_emb as qwen3_vl_rotate

from posenc import latent_attention
from posenc.attention import softmax
from posenc.book.claims import ch11 as claims
from posenc.mixed_layers import chunk_mask, every_nth_layer, nope_temperature, window_mask
from posenc.rotary import interleaved_to_half
from posenc.rotary_axes import mrope, mrope_axes
from posenc.scaling import dynamic_ntk, longrope, longrope_attention_scale, position_interpolation
from posenc.sinusoidal import frequencies

FLOAT32_LADDER = 2e-6  # relative: transformers computes base ** (2j/d) and the factors in float32
PHI35 = claims.PHI35_MINI
seed = st.integers(0, 10_000)


# ---------------------------------------------------------------- the claims, under many inputs


@given(data=st.data(), d=st.integers(1, 64).map(lambda h: 2 * h), context=st.integers(2, 100_000))
def test_longrope_switches_at_the_original_context_for_any_factors(data, d, context):
    factors = st.lists(st.floats(1.0, 100.0), min_size=d // 2, max_size=d // 2)
    config = {"d": d, "base": 10000.0, "original_context": context, "context": 32 * context,
              "short_factor": data.draw(factors), "long_factor": data.draw(factors)}
    assert claims.longrope_switches_at_the_original_context(config).holds


@given(d=st.integers(2, 64).map(lambda h: 2 * h), s=st.floats(1.0, 64.0), context=st.sampled_from([2048, 4096, 8192]),
       alpha=st.floats(0.5, 2.0), width=st.floats(1.0, 40.0))
def test_yarn_is_a_longrope_ladder_for_every_factor_and_ramp(d, s, context, alpha, width):
    assert claims.yarn_is_a_longrope_ladder(d, s, context, 10000.0, alpha, alpha + width).holds
    phi = claims.yarn_factors(d, s, context, 10000.0, alpha, alpha + width)
    assert np.all((phi >= 1 - 1e-12) & (phi <= s + 1e-9))  # from 1 (kept) to s (interpolated)


@given(d=st.integers(2, 64).map(lambda h: 2 * h), context=st.sampled_from([2048, 4096, 8192]),
       b=st.sampled_from([10_000.0, 500_000.0]))
def test_dynamic_ntk_is_a_longrope_ladder_at_each_length_with_a_new_list_each_time(d, context, b):
    assert claims.dynamic_ntk_is_a_longrope_ladder_at_each_length(d, context, b, times=(2, 3, 8)).holds
    assert not claims.dynamic_ntk_is_a_longrope_ladder_at_each_length(d, context, b, times=(2, 2)).holds
    for k in (2, 3, 8):  # the paper's form at L' = k L0 slows hand j by k^(2j/(d-2)) (NTK-aware with s = k)
        factors = frequencies(d, b) / dynamic_ntk(d, k * context, context, b)
        np.testing.assert_allclose(factors, k ** (2 * np.arange(d // 2) / (d - 2)), rtol=1e-9)


@given(s=st.floats(1.0, 1000.0), context=st.integers(2, 10**6))
def test_longrope_logits_are_multiplied_by_the_log_length_ratio(s, context):
    assert claims.longrope_logit_factor(s, context).holds


@given(seed=seed, n=st.integers(3, 8))
def test_a_nope_stack_without_mask_is_equivariant_and_a_mask_or_a_rope_layer_breaks_it(seed, n):
    assert claims.stack_permutation_equivariance("nope", causal=False, n=n, seed=seed).holds
    assert not claims.stack_permutation_equivariance("nope", causal=True, n=n, seed=seed).holds
    assert not claims.stack_permutation_equivariance("rope", causal=False, n=n, seed=seed).holds
    assert not claims.stack_permutation_equivariance("rope", causal=True, n=n, seed=seed).holds


@given(seed=seed, shift=st.integers(-5000, 5000), first=st.sampled_from(["rope", "nope"]), causal=st.booleans())
def test_every_stack_ignores_a_common_shift_of_the_position_ids(seed, shift, first, causal):
    assert claims.stack_sees_only_offsets(first, causal, shift, seed=seed).holds


@given(window=st.integers(1, 40), extra=st.integers(0, 60), kind=st.sampled_from(["window", "chunk"]))
def test_window_and_chunk_masks_meet_the_same_offsets_at_every_length(window, extra, kind):
    assert claims.window_offsets_do_not_grow(window, (window, window + extra, 3 * window), kind).holds


@pytest.mark.parametrize("kind", ["window", "chunk"])
def test_an_input_shorter_than_the_window_misses_the_farthest_offsets(kind):
    assert not claims.window_offsets_do_not_grow(16, (10,), kind).holds
    assert claims.window_offsets_do_not_grow(16, (16,), kind).holds


@given(window=st.integers(2, 2048), d=st.sampled_from([8, 64, 256]), base=st.sampled_from([100.0, 1e4, 1e6]),
       seed=seed)
def test_a_hand_moves_a_pairs_score_by_at_most_its_swept_angle(window, d, base, seed):
    assert claims.slow_hands_barely_move(window, d, base, seed).holds


@given(data=st.data(), d=st.integers(3, 64).map(lambda h: 2 * h), seed=seed)
def test_interleaved_mrope_turns_each_pair_by_the_id_of_its_axis(data, d, seed):
    sections = data.draw(interleavable_sections(d))
    assert claims.interleaved_mrope_turns_each_pair_by_its_axis(d=d, sections=sections, seed=seed).holds
    assert claims.interleaved_mrope_on_text_is_rope(d=d, sections=sections, seed=seed).holds


@given(seed=seed, n=st.integers(3, 12), d=st.sampled_from([2, 4, 8]))
def test_the_key_up_projection_is_absorbed_without_rotation_and_not_with_it(seed, n, d):
    assert claims.absorbed_score_equals_explicit(False, n=n, d=d, d_lat=2 * d, seed=seed).holds
    assert not claims.absorbed_score_equals_explicit(True, n=n, d=d, d_lat=2 * d, seed=seed).holds


@given(seed=seed, m=st.integers(1, 12), d=st.sampled_from([2, 4, 8, 16]))
def test_with_rope_only_the_zero_query_has_an_absorbed_form_and_without_every_query_does(seed, m, d):
    assert claims.only_the_zero_query_has_an_absorbed_form(True, m=m, d=d, d_lat=2 * d, seed=seed).holds
    assert claims.only_the_zero_query_has_an_absorbed_form(False, m=m, d=d, d_lat=2 * d, seed=seed).max_deviation == d


@pytest.mark.parametrize("d", [8, 32, 128])
def test_interleaving_gives_every_axis_its_count_a_fast_hand_and_even_spacing_and_sections_do_not(d):
    assert claims.each_axis_owns_its_count_and_a_fast_hand("interleaved", d=d).holds
    assert not claims.each_axis_owns_its_count_and_a_fast_hand("sections", d=d).holds


def test_the_admissible_sections_are_the_splits_mrope_interleaving_accepts():
    half = 8
    accepted = set()
    for j1 in range(half + 1):
        for j2 in range(half + 1 - j1):
            try:
                mrope_axes((half - j1 - j2, j1, j2), 2 * half, split="interleaved")
                accepted.add((half - j1 - j2, j1, j2))
            except ValueError:
                pass
    assert set(claims.admissible_sections(2 * half)) == accepted


@given(seed=seed, heads=st.integers(1, 4), n=st.integers(1, 12))
def test_mla_scores_equal_the_explicit_keys_scores(seed, heads, n):
    assert claims.mla_scores_equal_explicit_keys(heads=heads, n=n, seed=seed).holds


def test_the_claims_fail_on_broken_versions(monkeypatch):
    def no_switch(d, short_factor, long_factor, seq_len, original_context, base=10000.0):  # always the short list
        return frequencies(d, base) / np.asarray(short_factor)

    def sections_only(x, positions, sections, *, base=10000.0, split="sections"):  # ignores split
        return mrope(x, positions, sections, base=base)

    def no_rotary_part(q_nope, q_rope, latents, k_rope, w_uk, positions=None, *, base=10000.0):
        return (q_nope @ w_uk) @ latents.T

    monkeypatch.setattr(claims, "longrope", no_switch)
    monkeypatch.setattr(claims, "mrope", sections_only)
    monkeypatch.setattr(claims, "mla_scores", no_rotary_part)
    assert not claims.longrope_switches_at_the_original_context().holds
    assert not claims.interleaved_mrope_turns_each_pair_by_its_axis().holds
    assert not claims.mla_scores_equal_explicit_keys().holds


# ---------------------------------------------------------------- LongRoPE against Phi-3's code


def phi3_config() -> Phi3Config:
    return Phi3Config(hidden_size=3072, num_attention_heads=32, max_position_embeddings=PHI35["context"],
                      original_max_position_embeddings=PHI35["original_context"],
                      rope_parameters={"rope_type": "longrope", "rope_theta": PHI35["base"],
                                       "short_factor": list(PHI35["short_factor"]),
                                       "long_factor": list(PHI35["long_factor"]),
                                       "original_max_position_embeddings": PHI35["original_context"]})


def ours(seq_len: int) -> np.ndarray:
    return longrope(PHI35["d"], PHI35["short_factor"], PHI35["long_factor"], seq_len, PHI35["original_context"],
                    PHI35["base"])


@pytest.mark.parametrize("seq_len", [1, 100, 4096, 4097, 20_000, 131_072])
def test_longrope_is_transformers_longrope_in_both_regimes(seq_len):
    inv_freq, attention_factor = _compute_longrope_parameters(phi3_config(), None, seq_len=seq_len)
    np.testing.assert_allclose(ours(seq_len), inv_freq.double().numpy(), rtol=FLOAT32_LADDER)
    s = PHI35["context"] / PHI35["original_context"]
    assert attention_factor == pytest.approx(longrope_attention_scale(s, PHI35["original_context"]), rel=1e-15)
    assert attention_factor == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)), rel=1e-15)


def test_the_short_and_long_ladders_really_differ():
    assert np.max(np.abs(ours(4096) / ours(4097) - 1)) > 1.0


@pytest.mark.parametrize("length", [2000, 4096, 4097, 9000])
def test_phi3s_layer_turns_by_the_ladder_of_its_largest_position_times_the_factor_at_every_length(length):
    config = phi3_config()
    rotary = Phi3RotaryEmbedding(config)
    positions = torch.arange(length)[None]
    cos, sin = rotary(torch.ones(1, 1, length, PHI35["d"]), positions)
    scale = longrope_attention_scale(32.0, 4096)
    angles = np.outer(np.arange(length), ours(length))
    atol = 4 * length * 2.0**-24 * scale + 1e-6  # float32 angles
    np.testing.assert_allclose(cos[0, :, : PHI35["d"] // 2].numpy(), scale * np.cos(angles), atol=atol)
    np.testing.assert_allclose(sin[0, :, : PHI35["d"] // 2].numpy(), scale * np.sin(angles), atol=atol)


def test_phi3s_layer_picks_its_ladder_by_the_largest_position_of_each_call():
    rotary = Phi3RotaryEmbedding(phi3_config())
    x = torch.ones(1, 1, 1, PHI35["d"])
    prompt_cos, _ = rotary(x, torch.tensor([[10, 4095]]))  # a prompt within L0: the short factors
    decode_cos, _ = rotary(x, torch.tensor([[10, 5000]]))  # a call that reaches past L0: the long factors
    angles = 10 * np.stack([ours(4096), ours(5001)])
    scale = longrope_attention_scale(32.0, 4096)
    np.testing.assert_allclose(torch.stack([prompt_cos[0, 0], decode_cos[0, 0]])[:, :PHI35["d"] // 2].numpy(),
                               scale * np.cos(angles), atol=1e-5)
    assert np.abs(np.cos(angles[0]) - np.cos(angles[1])).max() > 0.1  # position 10, turned by two ladders


# ---------------------------------------------------------------- RoPE and NoPE layers: Llama 4, SmolLM3


def test_the_chapters_settings_are_transformers_defaults():
    llama4, deepseek = Llama4TextConfig(), DeepseekV3Config()
    assert (llama4.num_hidden_layers, llama4.no_rope_layer_interval, llama4.attention_chunk_size, llama4.attn_scale,
            llama4.floor_scale) == tuple(claims.LLAMA4.values())
    assert (deepseek.num_attention_heads, deepseek.qk_nope_head_dim, deepseek.qk_rope_head_dim, deepseek.kv_lora_rank,
            deepseek.v_head_dim) == tuple(claims.DEEPSEEK_V3.values())
    assert Gemma3TextConfig.default_theta == {"global": claims.GEMMA3["global_base"],
                                              "local": claims.GEMMA3["local_base"]}


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


@pytest.mark.parametrize(("n", "size"), [(1, 1), (7, 3), (20, 4), (33, 8)])
def test_window_and_chunk_masks_are_transformers(n, size):
    np.testing.assert_array_equal(window_mask(n, size), mask_from(sliding_window_causal_mask_function(size), n))
    np.testing.assert_array_equal(chunk_mask(n, size), mask_from(chunked_causal_mask_function(size, torch.zeros(1,
                                                                                                  dtype=int)), n))


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


# ---------------------------------------------------------------- Gemma 3's two ladders


def test_gemma3s_local_and_global_ladders_are_transformers():
    gemma = claims.GEMMA3
    config = Gemma3TextConfig(head_dim=gemma["d"], sliding_window=gemma["window"], num_hidden_layers=12,
                              rope_parameters={"sliding_attention": {"rope_type": "default",
                                                                     "rope_theta": gemma["local_base"]},
                                               "full_attention": {"rope_type": "linear", "factor": gemma["factor"],
                                                                  "rope_theta": gemma["global_base"]}})
    rotary = Gemma3RotaryEmbedding(config)
    np.testing.assert_allclose(frequencies(gemma["d"], gemma["local_base"]),
                               rotary.sliding_attention_inv_freq.double().numpy(), rtol=FLOAT32_LADDER)
    np.testing.assert_allclose(position_interpolation(gemma["d"], gemma["factor"], gemma["global_base"]),
                               rotary.full_attention_inv_freq.double().numpy(), rtol=FLOAT32_LADDER)
    glob = every_nth_layer(12, gemma["every"])
    assert config.layer_types == ["full_attention" if g else "sliding_attention" for g in glob]


# ---------------------------------------------------------------- M-RoPE: Qwen2-VL's sections, Qwen3-VL's interleaving


def axes_of(rotary, half: int) -> np.ndarray:
    """Which axis each pair takes its angle from in a Qwen rotary module: feed axis a the value a everywhere."""
    freq = torch.arange(3, dtype=torch.float64)[:, None, None, None].expand(3, 1, 1, half).clone()
    return rotary.recomposition_frequencies(freq)[0, 0, :half].long().numpy()


def test_mrope_axes_are_the_qwen_models_recompositions():
    qwen2 = Qwen2VLRotaryEmbedding(Qwen2VLTextConfig(hidden_size=256, num_attention_heads=2))
    qwen3 = Qwen3VLTextRotaryEmbedding(Qwen3VLTextConfig(hidden_size=256, num_attention_heads=2, head_dim=128))
    splits = claims.QWEN_VL_MROPE["splits"]
    assert tuple(qwen2.mrope_section) == splits["sections"] and tuple(qwen3.mrope_section) == splits["interleaved"]
    np.testing.assert_array_equal(mrope_axes(splits["sections"], 128), axes_of(qwen2, 64))
    np.testing.assert_array_equal(mrope_axes(splits["interleaved"], 128, split="interleaved"), axes_of(qwen3, 64))


def test_the_slowest_hands_of_qwen3_vls_interleaved_split_all_turn_with_time():
    qwen3 = Qwen3VLTextRotaryEmbedding(Qwen3VLTextConfig(hidden_size=256, num_attention_heads=2, head_dim=128))
    owners = axes_of(qwen3, 64)
    _, height, width = claims.QWEN_VL_MROPE["splits"]["interleaved"]
    tail = len(owners) - len(np.trim_zeros(owners, "b"))  # the run of time (axis 0) at the slow end
    # height's last hand is 3 J_1 - 2 and width's 3 J_2 - 1: the chapter's caption counts the hands after both
    assert tail == 64 - max(3 * height - 1, 3 * width) == 4
    ours = mrope_axes(claims.QWEN_VL_MROPE["splits"]["interleaved"], 128, split="interleaved")
    assert 64 - 1 - np.flatnonzero(ours != 0).max() == tail


@pytest.mark.parametrize("sections", [(24, 20, 20), (12, 10, 10), (11, 11, 10), (16, 8, 8)])
def test_interleaved_mrope_is_qwen3_vls_rotation_on_heads_in_the_half_layout(sections):
    d = 2 * sum(sections)
    config = Qwen3VLTextConfig(hidden_size=2 * d, num_attention_heads=2, head_dim=d,
                               rope_parameters={"rope_type": "default", "rope_theta": 500000.0,
                                                "mrope_section": list(sections), "mrope_interleaved": True})
    rng = np.random.default_rng(1)
    ids = rng.integers(0, 300, (3, 9))
    x = rng.standard_normal((9, d))
    cos, sin = Qwen3VLTextRotaryEmbedding(config)(torch.zeros(1, dtype=torch.float64),
                                                  torch.from_numpy(ids)[:, None, :])
    p = interleaved_to_half(d)
    theirs, _ = qwen3_vl_rotate(torch.from_numpy(x[:, p])[None, None], torch.zeros(1, 1, 9, d), cos, sin)
    atol = 4 * 300 * 2.0**-24 * 4 + 1e-6  # float32 angles of ids up to 300
    np.testing.assert_allclose(mrope(x, ids, sections, base=500000.0, split="interleaved")[:, p],
                               theirs[0, 0].numpy(), atol=atol)


# ---------------------------------------------------------------- latent attention: DeepSeek-V3


def test_mla_scores_are_deepseek_v3s_attention_weights():
    config = DeepseekV3Config(hidden_size=32, num_attention_heads=3, num_key_value_heads=3, q_lora_rank=None,
                              kv_lora_rank=16, qk_nope_head_dim=8, qk_rope_head_dim=4, v_head_dim=6,
                              attn_implementation="eager", rope_parameters={"rope_type": "default",
                                                                            "rope_theta": 10000.0})
    torch.manual_seed(0)
    layer = DeepseekV3Attention(config, layer_idx=0).double()
    n = 10
    x = torch.randn(1, n, 32, dtype=torch.float64)
    positions = torch.arange(n)[None]
    cos, sin = DeepseekV3RotaryEmbedding(config)(x, positions)
    causal = torch.full((n, n), -torch.inf, dtype=torch.float64).triu(1)[None, None]
    _, weights = layer(x, position_embeddings=(cos.double(), sin.double()), attention_mask=causal)
    with torch.no_grad():
        q = layer.q_proj(x).view(n, 3, 12).transpose(0, 1).contiguous()
        latent, k_rope = layer.kv_a_proj_with_mqa(x)[0].split([16, 4], dim=-1)
        latent = layer.kv_a_layernorm(latent)
        w_uk = layer.kv_b_proj.weight.detach().view(3, 14, 16)[:, :8]  # each head's rows for its key, then its value
    scores = latent_attention.mla_scores(q[..., :8].numpy(), q[..., 8:].numpy(), latent.numpy(), k_rope.numpy(),
                                         w_uk.numpy())
    ours = softmax(np.where(np.tri(n, dtype=bool), scores * layer.scaling, -np.inf))
    np.testing.assert_allclose(ours, weights[0].detach().numpy(), atol=1e-6)  # float32 angles in transformers
