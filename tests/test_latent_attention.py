"""Multi-head latent attention: the absorbed scores against transformers' DeepSeek-V2 and DeepSeek-V3 attention (the
explicit keys of a few heads are compared with them on the page of chapter 11)."""

import numpy as np
import pytest
import torch
from transformers import DeepseekV2Config, DeepseekV3Config
from transformers.models.deepseek_v2.modeling_deepseek_v2 import DeepseekV2Attention, DeepseekV2RotaryEmbedding
from transformers.models.deepseek_v3.modeling_deepseek_v3 import DeepseekV3Attention, DeepseekV3RotaryEmbedding

from posenc.attention import softmax
from posenc.latent_attention import mla_scores


def rotary_v2(config, x, n):  # DeepSeek-V2 turns its pairs as complex numbers: e^(i m theta_j)
    return DeepseekV2RotaryEmbedding(config)(x, torch.arange(n)[None])


def rotary_v3(config, x, n):  # DeepSeek-V3: cos and sin, its rotary part stored interleaved
    cos, sin = DeepseekV3RotaryEmbedding(config)(x, torch.arange(n)[None])
    return cos.double(), sin.double()


@pytest.mark.parametrize("make_config, make_layer, rotary", [(DeepseekV2Config, DeepseekV2Attention, rotary_v2),
                                                             (DeepseekV3Config, DeepseekV3Attention, rotary_v3)],
                         ids=["deepseek_v2", "deepseek_v3"])
def test_mla_scores_are_deepseeks_attention_weights(make_config, make_layer, rotary):
    config = make_config(hidden_size=36, num_attention_heads=3, num_key_value_heads=3, q_lora_rank=None,
                         kv_lora_rank=16, qk_nope_head_dim=8, qk_rope_head_dim=4, v_head_dim=6,
                         attn_implementation="eager", rope_parameters={"rope_type": "default", "rope_theta": 10000.0})
    torch.manual_seed(0)
    layer = make_layer(config, layer_idx=0).double()
    n = 10
    x = torch.randn(1, n, 36, dtype=torch.float64)
    causal = torch.full((n, n), -torch.inf, dtype=torch.float64).triu(1)[None, None]
    _, weights = layer(x, position_embeddings=rotary(config, x, n), attention_mask=causal)
    with torch.no_grad():
        q = layer.q_proj(x).view(n, 3, 12).transpose(0, 1).contiguous()
        latent, k_rope = layer.kv_a_proj_with_mqa(x)[0].split([16, 4], dim=-1)
        latent = layer.kv_a_layernorm(latent)
        w_uk = layer.kv_b_proj.weight.detach().view(3, 14, 16)[:, :8]  # each head's rows for its key, then its value
    scores = mla_scores(q[..., :8].numpy(), q[..., 8:].numpy(), latent.numpy(), k_rope.numpy(), w_uk.numpy())
    ours = softmax(np.where(np.tri(n, dtype=bool), scores * layer.scaling, -np.inf))
    np.testing.assert_allclose(ours, weights[0].detach().numpy(), atol=1e-6)  # float32 angles in transformers
