"""Chapter 7, *A clock with many hands*: what its page says of Hugging Face transformers, checked on transformers
itself (p-RoPE as transformers' ``proportional`` rope type, the one Gemma 4 gives its full-attention layers)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from transformers import Gemma4Config, LlamaConfig
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb

from posenc.rotary import half_to_interleaved, interleaved_to_half, rope_with_ladder
from posenc.rotary_axes import partial_rope
from posenc.sinusoidal import frequencies


def test_gemma4_gives_its_full_attention_layers_proportional_rope():
    assert Gemma4Config().text_config.rope_parameters["full_attention"]["rope_type"] == "proportional"


@pytest.mark.parametrize(("head_dim", "fraction", "base"), [(64, 0.25, 10_000.0), (128, 0.5, 1_000_000.0)])
def test_proportional_rope_is_the_ladder_with_the_slowest_hands_stopped(head_dim, fraction, base):
    """transformers' ``proportional`` ladder keeps base^(-2j/d) for the fastest int(fraction * d / 2) hands and
    sets the rest to 0; its rotation (half layout) is the book's p-RoPE, ``rope_with_ladder`` on that ladder and
    ``partial_rope`` with the base raised to the fraction, once the coordinates are reordered."""
    config = LlamaConfig(hidden_size=4 * head_dim, num_attention_heads=4, head_dim=head_dim,
                         rope_parameters={"rope_type": "proportional", "rope_theta": base,
                                          "partial_rotary_factor": fraction})
    kept = int(fraction * head_dim // 2)
    p_ladder = np.where(np.arange(head_dim // 2) < kept, frequencies(head_dim, base), 0.0)
    rotary = LlamaRotaryEmbedding(config)
    np.testing.assert_allclose(rotary.inv_freq.double().numpy(), p_ladder, rtol=2e-6, atol=0)  # float32 ladder
    positions = 300 + np.arange(6)
    x = torch.randn(1, 2, positions.size, head_dim, generator=torch.Generator().manual_seed(head_dim))
    cos, sin = rotary(x, torch.from_numpy(positions)[None])
    by_transformers, _ = apply_rotary_pos_emb(x, x, cos, sin)
    half = torch.from_numpy(interleaved_to_half(head_dim))
    interleaved = x[..., torch.from_numpy(half_to_interleaved(head_dim))]  # the same pairs, interleaved
    atol = 4 * (1 + positions.max()) * 2.0**-24 * float(x.abs().max()) + 1e-6  # float32 angles
    for book in (rope_with_ladder(interleaved, p_ladder, positions),
                 partial_rope(interleaved, positions, rotary_fraction=fraction, base=base**fraction)):
        torch.testing.assert_close(book[..., half], by_transformers, rtol=0, atol=atol)
    stopped = torch.from_numpy(np.r_[kept:head_dim // 2, head_dim // 2 + kept:head_dim])  # pairs j >= kept
    assert torch.equal(by_transformers[..., stopped], x[..., stopped])
