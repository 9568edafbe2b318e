"""Context extension: each scaled ladder against the published formula, written out here in plain arithmetic, or
against transformers' code (``ROPE_INIT_FUNCTIONS``, the rules as models ship them); and RoPE turned by a given
ladder.

Tolerances. transformers computes the ladder in float32: ``base ** (2j/d)`` carries a relative error of about
``ln(base) * 2**-24`` (FLOAT32_LADDER), and a ramp between two ladders adds the float32 error of its weights. posenc
computes in float64; the comparisons allow those float32 errors and nothing more.
"""

import math

import numpy as np
import pytest
import torch
from conftest import FLOAT32_LADDER
from hypothesis import given
from hypothesis import strategies as st
from transformers import DeepseekV3Config, Llama4TextConfig, LlamaConfig, Phi3Config
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS, _compute_longrope_parameters
from transformers.models.deepseek_v3.modeling_deepseek_v3 import DeepseekV3Attention, DeepseekV3RotaryEmbedding
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
from transformers.models.phi3.modeling_phi3 import Phi3RotaryEmbedding

from posenc.rotary import apply_rope, rope_with_ladder
from posenc.scaling import (
    PHI35_MINI,
    dynamic_ntk,
    llama3,
    longrope,
    longrope_attention_scale,
    ntk_aware,
    position_interpolation,
    yarn,
    yarn_attention_scale,
    yarn_correction_range,
    yarn_mscale_split,
    yarn_reference,
)
from posenc.sinusoidal import frequencies

even_d = st.integers(2, 128).map(lambda h: 2 * h)
factor = st.floats(1.0, 64.0)
base = st.sampled_from([100.0, 10_000.0, 500_000.0, 1_000_000.0])
model_base = st.sampled_from([10_000.0, 500_000.0, 1_000_000.0])


def ladder(d, base):
    """theta_j = base^(-2j/d), one hand at a time."""
    return [base ** (-2 * j / d) for j in range(d // 2)]


def llama_config(head_dim: int, base: float, max_positions: int, **rope) -> LlamaConfig:
    return LlamaConfig(hidden_size=4 * head_dim, num_attention_heads=4, head_dim=head_dim,
                       max_position_embeddings=max_positions,
                       rope_parameters={"rope_type": rope.pop("rope_type", "default"), "rope_theta": base, **rope})


def hf_ladder(rope_type: str, config, seq_len: int | None = None) -> tuple[np.ndarray, float]:
    """transformers' ladder (in float64) and its factor on cos and sin, for ``config``'s rope type ``rope_type``."""
    inv_freq, attention_factor = ROPE_INIT_FUNCTIONS[rope_type](config, None, seq_len=seq_len)
    return inv_freq.double().numpy(), attention_factor


@pytest.mark.verifies("thm-ntk-ends")
@given(d=even_d, s=factor, b=base)
def test_ntk_aware_keeps_the_fastest_hand_and_divides_the_slowest_by_exactly_the_factor(d, s, b):
    scaled, theta = ntk_aware(d, s, b), ladder(d, b)
    assert scaled[0] == pytest.approx(1.0, rel=1e-14)
    assert scaled[-1] == pytest.approx(theta[-1] / s, rel=1e-12)
    ratio = scaled / np.array(theta)  # s^(-2j/(d-2)): from 1 down to 1/s, steadily
    np.testing.assert_allclose(ratio, [s ** (-2 * j / (d - 2)) for j in range(d // 2)], rtol=1e-12)


def float32_ramp_tolerance(factor, low, high):
    """How far transformers' float32 ladder may be from the exact one, relatively: float32 rounds theta_j by
    about ln(b) * 2**-24 (FLOAT32_LADDER), and the ramp multiplies that error by up to (s - 1) high/(high - low)."""
    return FLOAT32_LADDER * (1 + (factor - 1) * high / (high - low))


@pytest.mark.verifies("thm-llama3-is-yarn")
@given(s=factor, low=st.floats(0.5, 2.0), width=st.floats(0.5, 8.0), d=st.integers(8, 128).map(lambda h: 2 * h))
def test_hugging_faces_llama31_ladder_is_yarns_ramp_from_low_to_high_freq_factor(s, low, width, d):
    theirs, _ = hf_ladder("llama3", llama_config(d, 500_000.0, 16 * 8192, rope_type="llama3", factor=s,
                                                 low_freq_factor=low, high_freq_factor=low + width,
                                                 original_max_position_embeddings=8192))
    tolerance = float32_ramp_tolerance(s, low, low + width)
    np.testing.assert_allclose(yarn(d, s, 8192, 500_000.0, alpha=low, beta=low + width), theirs, rtol=tolerance)
    ours = llama3(d, s, low, low + width)
    np.testing.assert_allclose(ours, theirs, rtol=tolerance)
    ratio = ours / np.array(ladder(d, 500_000.0))
    assert np.all(np.diff(ratio) <= 1e-15)  # never speeds a slower hand up
    assert np.all((ratio <= 1 + 1e-15) & (ratio >= 1 / s - 1e-15))


def test_llama4_scouts_step_ladder_is_transformers_llama3_type_with_equal_freq_factors():
    """Llama 4 Scout's released rope_scaling: factor 16, low_freq_factor = high_freq_factor = 1, L0 = 8192, base
    500,000, head width 128. transformers (with a warning) returns a step: 35 hands kept, the other 29 divided."""
    config = Llama4TextConfig(hidden_size=5120, num_attention_heads=40, head_dim=128,
                              rope_parameters={"rope_type": "llama3", "rope_theta": 500_000.0, "factor": 16.0,
                                               "low_freq_factor": 1.0, "high_freq_factor": 1.0,
                                               "original_max_position_embeddings": 8192})
    theirs, _ = hf_ladder("llama3", config)
    ours = llama3(128, 16.0, 1.0, 1.0, 8192, 500_000.0)
    np.testing.assert_allclose(ours, theirs, rtol=FLOAT32_LADDER)
    ratio = ours / np.array(ladder(128, 500_000.0))
    np.testing.assert_allclose(ratio, np.where(np.arange(64) < 35, 1.0, 1 / 16), rtol=1e-15)  # lambda_34 < 8192


@pytest.mark.parametrize("factor", [2.0, 4.0, 8.0])
def test_linear_scaling_is_position_interpolation(factor):
    inv_freq, attention_factor = hf_ladder("linear", llama_config(128, 10_000.0, 4096, rope_type="linear",
                                                                  factor=factor))
    np.testing.assert_allclose(position_interpolation(128, factor), inv_freq, rtol=FLOAT32_LADDER)
    assert attention_factor == 1.0


@pytest.mark.parametrize("factor", [1.0, 2.0])
@pytest.mark.parametrize("seq_len", [1024, 4096, 4097, 8192, 20_000, 131_072])
def test_dynamic_ntk_matches_hugging_face_at_every_length_with_l0_its_max_position_embeddings(factor, seq_len):
    """Chapter 9's L0 for dynamic NTK is transformers' max_position_embeddings (4,096 here): an
    original_max_position_embeddings in the rope parameters (2,048) is ignored, else every length from 2,049 on
    would differ."""
    config = llama_config(128, 10_000.0, 4096, rope_type="dynamic", factor=factor,
                          original_max_position_embeddings=2048)
    inv_freq, _ = hf_ladder("dynamic", config, seq_len=seq_len)
    np.testing.assert_allclose(dynamic_ntk(128, seq_len, 4096, factor=factor), inv_freq, rtol=FLOAT32_LADDER)


def test_dynamic_ntk_is_what_a_hugging_face_layer_rotates_with_beyond_its_context():
    # the layer reads the length from the positions (max + 1) and recomputes its ladder
    rotary = LlamaRotaryEmbedding(llama_config(64, 10_000.0, 256, rope_type="dynamic", factor=2.0))
    positions = torch.arange(0, 1000, 7)[None]
    _, sin = rotary(torch.ones(1, 1, 1, 64), positions)
    length = int(positions.max()) + 1  # 995
    expected = np.sin(np.outer(positions[0].numpy(), dynamic_ntk(64, length, 256, factor=2.0)))
    np.testing.assert_allclose(sin[0, :, :32].numpy(), expected, atol=4 * length * 2.0**-24 + 1e-6)  # float32 angles


def hf_yarn(d, factor, context, base, **rope) -> tuple[np.ndarray, float]:
    return hf_ladder("yarn", llama_config(d, base, int(factor * context), rope_type="yarn", factor=factor,
                                          original_max_position_embeddings=context, **rope))


@given(d=st.integers(8, 128).map(lambda h: 2 * h), factor=st.floats(1.0, 64.0), b=model_base,
       context=st.sampled_from([2048, 4096, 8192, 32_768]))
def test_yarn_reference_and_its_temperature_are_hugging_faces_yarn_rope(d, factor, b, context):
    """transformers rounds the ramp's ends outward (``truncate``, true by default); its float32 ramp weights err by
    about 2**-23, which moves a hand by that times s - 1, relatively."""
    inv_freq, attention_factor = hf_yarn(d, factor, context, b)
    np.testing.assert_allclose(yarn_reference(d, factor, context, b), inv_freq,
                               rtol=FLOAT32_LADDER + 2.0**-23 * factor)
    assert yarn_attention_scale(factor) == pytest.approx(attention_factor, rel=1e-15)


def test_hugging_faces_yarn_without_truncate_ramps_between_the_unrounded_ends():
    theirs, _ = hf_yarn(128, 8.0, 8192, 500_000.0, truncate=False)
    low, high = (128 * math.log(8192 / (r * 2 * math.pi)) / (2 * math.log(500_000.0)) for r in (32, 1))
    rho = np.clip((np.arange(64) - low) / (high - low), 0, 1)  # the ramp between the fractional indices j(32), j(1)
    np.testing.assert_allclose(theirs, rho * frequencies(128, 500_000.0) / 8 + (1 - rho) * frequencies(128, 500_000.0),
                               rtol=FLOAT32_LADDER)
    assert np.abs(theirs / yarn_reference(128, 8.0, 8192, 500_000.0) - 1).max() > 1e-3


def test_yarn_paper_and_code_differ_inside_the_ramp():
    gap = np.abs(yarn_reference(128, 8, 8192, 500_000.0) - yarn(128, 8, 8192, 500_000.0))
    low, high = yarn_correction_range(128, 8192, 500_000.0)
    assert np.all(gap[low + 2:high - 1] > 0) and gap.max() > 0.01 * yarn(128, 8, 8192, 500_000.0)[low + 2]


@pytest.mark.verifies("thm-pi-scaled-positions")
@given(n=st.integers(1, 64), d=st.integers(1, 6).map(lambda h: 2 * h), s=st.one_of(st.just(1.0), factor), b=base,
       offset=st.integers(0, 3000), seed=st.integers(0, 1000))
def test_rope_with_the_interpolated_ladder_is_rope_at_the_positions_divided_by_the_factor(n, d, s, b, offset, seed):
    """At factor 1 the ladder is the ordinary one, and rope_with_ladder is apply_rope; numpy or torch."""
    x = np.random.default_rng(seed).standard_normal((2, n, d))
    positions, ladder = offset + np.arange(n), position_interpolation(d, s, b)
    expected = apply_rope(x, positions / s, base=b)
    np.testing.assert_allclose(rope_with_ladder(x, ladder, positions), expected, atol=1e-10)  # angles up to 3,064
    as_torch = rope_with_ladder(torch.from_numpy(x), ladder, positions)
    assert isinstance(as_torch, torch.Tensor) and as_torch.dtype == torch.float64
    np.testing.assert_allclose(as_torch.numpy(), expected, atol=1e-10)


# ---- LongRoPE against Phi-3's code in transformers, with Phi-3.5-mini's published factors (chapter 11) ----


def phi3_config() -> Phi3Config:
    return Phi3Config(hidden_size=3072, num_attention_heads=32, max_position_embeddings=PHI35_MINI["context"],
                      original_max_position_embeddings=PHI35_MINI["original_context"],
                      rope_parameters={"rope_type": "longrope", "rope_theta": PHI35_MINI["base"],
                                       "short_factor": list(PHI35_MINI["short_factor"]),
                                       "long_factor": list(PHI35_MINI["long_factor"]),
                                       "original_max_position_embeddings": PHI35_MINI["original_context"]})


def phi35_ladder(seq_len: int) -> np.ndarray:
    return longrope(PHI35_MINI["d"], PHI35_MINI["short_factor"], PHI35_MINI["long_factor"], seq_len,
                    PHI35_MINI["original_context"], PHI35_MINI["base"])


PHI35_SCALE = longrope_attention_scale(PHI35_MINI["context"] / PHI35_MINI["original_context"],
                                       PHI35_MINI["original_context"])


@pytest.mark.parametrize("seq_len", [1, 100, 4096, 4097, 20_000, 131_072])
def test_longrope_is_transformers_longrope_in_both_regimes(seq_len):
    inv_freq, attention_factor = _compute_longrope_parameters(phi3_config(), None, seq_len=seq_len)
    np.testing.assert_allclose(phi35_ladder(seq_len), inv_freq.double().numpy(), rtol=FLOAT32_LADDER)
    assert attention_factor == pytest.approx(PHI35_SCALE, rel=1e-15)


@pytest.mark.verifies("thm-longrope-temperature")
@pytest.mark.parametrize("length", [2000, 4096, 4097, 9000])
def test_phi3s_layer_multiplies_cos_and_sin_of_the_ladder_of_its_largest_position_by_the_factor(length):
    cos, sin = Phi3RotaryEmbedding(phi3_config())(torch.ones(1, 1, length, PHI35_MINI["d"]), torch.arange(length)[None])
    angles = np.outer(np.arange(length), phi35_ladder(length))
    atol = 4 * length * 2.0**-24 * PHI35_SCALE + 1e-6  # float32 angles
    np.testing.assert_allclose(cos[0, :, : PHI35_MINI["d"] // 2].numpy(), PHI35_SCALE * np.cos(angles), atol=atol)
    np.testing.assert_allclose(sin[0, :, : PHI35_MINI["d"] // 2].numpy(), PHI35_SCALE * np.sin(angles), atol=atol)


def test_phi3s_layer_picks_its_ladder_by_the_largest_position_of_each_call():
    rotary, x = Phi3RotaryEmbedding(phi3_config()), torch.ones(1, 1, 1, PHI35_MINI["d"])
    prompt_cos, _ = rotary(x, torch.tensor([[10, 4095]]))  # a prompt within L0: the short factors
    decode_cos, _ = rotary(x, torch.tensor([[10, 5000]]))  # a call that reaches past L0: the long factors
    angles = 10 * np.stack([phi35_ladder(4096), phi35_ladder(5001)])
    np.testing.assert_allclose(torch.stack([prompt_cos[0, 0], decode_cos[0, 0]])[:, :PHI35_MINI["d"] // 2].numpy(),
                               PHI35_SCALE * np.cos(angles), atol=1e-5)
    assert np.abs(np.cos(angles[0]) - np.cos(angles[1])).max() > 0.1  # position 10, turned by two ladders


# ---- YaRN's mscale and mscale_all_dim against transformers' DeepSeek-V3 (chapter 11) ----


@pytest.mark.verifies("thm-deepseek-mscale")
@pytest.mark.parametrize("mscale, mscale_all_dim", [(1.0, 1.0), (0.707, 0.707), (1.0, 0.5), (0.5, 1.0), (1.0, 0.0),
                                                    (0.5, 0.0), (0.0, 1.0)])
def test_deepseek_v3_puts_its_yarn_factors_on_cos_and_sin_and_on_the_softmax_scale(mscale, mscale_all_dim):
    # as in DeepSeek-V3's released config.json (V2: 0.707); the attention's scaling is 1/sqrt(d_nope + d_rope)
    config = DeepseekV3Config(hidden_size=64, num_attention_heads=2, q_lora_rank=16, kv_lora_rank=16,
                              qk_nope_head_dim=8, qk_rope_head_dim=4, v_head_dim=8, max_position_embeddings=163_840,
                              rope_theta=10_000.0, rope_scaling={"type": "yarn", "factor": 40, "mscale": mscale,
                                                                 "mscale_all_dim": mscale_all_dim,
                                                                 "original_max_position_embeddings": 4096,
                                                                 "beta_fast": 32, "beta_slow": 1})
    on_cos_sin, on_softmax = yarn_mscale_split(40, mscale, mscale_all_dim)
    assert DeepseekV3RotaryEmbedding(config).attention_scaling == pytest.approx(on_cos_sin, rel=1e-15)
    assert DeepseekV3Attention(config, 0).scaling == pytest.approx(on_softmax / math.sqrt(12), rel=1e-15)
    g = [0.1 * mu * math.log(40) + 1 for mu in (mscale, mscale_all_dim)]  # the paper's sqrt(1/t) at each mu
    assert on_softmax == pytest.approx(g[1] ** 2, rel=1e-15)  # the unrotated part of a logit
    if mscale and mscale_all_dim:  # the theorem's case; else transformers puts YaRN's own g(s, 1) on cos and sin
        assert on_cos_sin**2 * on_softmax == pytest.approx(g[0] ** 2, rel=1e-15)  # the rotated part
