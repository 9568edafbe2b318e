"""apply_rope against independent references: Hugging Face transformers and Meta's complex-number form.

Hugging Face's Llama code is the half layout most checkpoints use (``rotate_half``); Meta's reference code is the
interleaved layout, written with complex numbers (``torch.polar``, ``torch.view_as_complex``). No weights are needed:
every configuration is built in code. (The context-extension ladders against transformers' ``ROPE_INIT_FUNCTIONS``:
tests/test_scaling.py.)

Tolerances. Hugging Face computes the angles in float32: the angle ``m * theta`` carries an absolute error of about
``m * 2**-24``; posenc computes it in float64. The comparison below allows that float32 error and nothing more;
Meta's form, evaluated in float64, must agree to round-off.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from transformers import LlamaConfig
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb

from posenc.rotary import apply_rope

# ---- apply_rope(layout="half") against LlamaRotaryEmbedding + apply_rotary_pos_emb ----


def hugging_face_rope(q, k, position_ids, head_dim: int, base: float):
    """Rotate q and k, shape (batch, heads, seq, head_dim), as a Llama attention layer does."""
    rotary = LlamaRotaryEmbedding(LlamaConfig(hidden_size=4 * head_dim, num_attention_heads=4, head_dim=head_dim,
                                              rope_parameters={"rope_type": "default", "rope_theta": base}))
    cos, sin = rotary(q, position_ids)
    return apply_rotary_pos_emb(q, k, cos, sin)


def angle_tolerance(positions) -> float:
    """Absolute tolerance on a rotated unit-size entry: float32 angles err by about m * 2**-24 (m the
    largest position), plus float32 round-off of the products."""
    return 4 * (1 + float(np.max(positions))) * 2.0**-24 + 1e-6


@pytest.mark.parametrize("base", [10_000.0, 500_000.0])
@pytest.mark.parametrize("offset", [0, 37, 1000])
def test_half_layout_matches_hugging_face_llama_with_kv_cache_offsets(base, offset):
    """(A left-padded batch's positions are transformers' own: tests/ch08/test_ch08.py.)"""
    batch, heads, seq, head_dim = 2, 4, 9, 64
    generator = torch.Generator().manual_seed(offset)
    q, k = torch.randn(2, batch, heads, seq, head_dim, generator=generator)
    positions = offset + np.arange(seq)
    hf_q, hf_k = hugging_face_rope(q, k, torch.as_tensor(positions)[None].repeat(batch, 1), head_dim, base)
    atol = angle_tolerance(positions) * float(max(q.abs().max(), k.abs().max()))
    torch.testing.assert_close(apply_rope(q, positions, base=base, layout="half"), hf_q, rtol=0, atol=atol)
    torch.testing.assert_close(apply_rope(k, positions, base=base, layout="half"), hf_k, rtol=0, atol=atol)


# ---- the interleaved layout against Meta's complex-number form ----


def meta_precompute_freqs_cis(dim: int, end: int, theta: float, dtype: torch.dtype) -> torch.Tensor:
    """Meta's Llama reference: e^{i m theta_j} for m < end, as complex numbers (``torch.polar``)."""
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: dim // 2].to(dtype) / dim))
    t = torch.arange(end, dtype=dtype)
    freqs = torch.outer(t, freqs)
    return torch.polar(torch.ones_like(freqs), freqs)


def meta_apply_rotary_emb(xq: torch.Tensor, freqs_cis: torch.Tensor) -> torch.Tensor:
    """Meta's Llama reference for x of shape (batch, seq, heads, head_dim): pairs (2j, 2j+1) are the
    complex numbers x_2j + i x_2j+1, multiplied by e^{i m theta_j}."""
    work = torch.float64 if freqs_cis.dtype == torch.complex128 else torch.float32
    xq_ = torch.view_as_complex(xq.to(work).reshape(*xq.shape[:-1], -1, 2))
    freqs_cis = freqs_cis.view(1, xq_.shape[1], 1, xq_.shape[-1])  # reshape_for_broadcast
    return torch.view_as_real(xq_ * freqs_cis).flatten(3).type_as(xq)


def test_interleaved_layout_is_metas_complex_form_to_round_off_in_float64():
    """(posenc's float32 angles at long positions: the half-layout comparison above, on float32 inputs; the two
    layouts agree up to their permutation: tests/test_rotary.py.)"""
    x = torch.randn(2, 50, 3, 64, dtype=torch.float64, generator=torch.Generator().manual_seed(2))  # Meta's order
    expected = meta_apply_rotary_emb(x, meta_precompute_freqs_cis(64, 50, 10_000.0, torch.float64))
    ours = apply_rope(x.transpose(1, 2)).transpose(1, 2)  # posenc wants (..., seq, d)
    torch.testing.assert_close(ours, expected, rtol=0, atol=1e-12)
