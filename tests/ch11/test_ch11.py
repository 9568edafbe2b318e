"""Chapter 11, *RoPE in current models*: the published settings the chapter computes with are transformers' own.
Its comparisons with the transformers code that runs each model live with the ideas they test
(test_scaling, test_mixed_layers, test_rotary_axes, test_latent_attention)."""

from __future__ import annotations

from transformers import DeepseekV3Config, Gemma3TextConfig, Llama4TextConfig, Qwen2VLTextConfig, Qwen3VLTextConfig
from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLRotaryEmbedding
from transformers.models.qwen3_vl.modeling_qwen3_vl import Qwen3VLTextRotaryEmbedding

from posenc.book.ch11 import DEEPSEEK_V3, GEMMA3, LLAMA4, QWEN_VL_MROPE


def test_the_chapters_settings_are_transformers_defaults():
    llama4, deepseek = Llama4TextConfig(), DeepseekV3Config()
    assert (llama4.num_hidden_layers, llama4.no_rope_layer_interval, llama4.attention_chunk_size, llama4.attn_scale,
            llama4.floor_scale) == tuple(LLAMA4.values())
    assert (deepseek.num_attention_heads, deepseek.qk_nope_head_dim, deepseek.qk_rope_head_dim, deepseek.kv_lora_rank,
            deepseek.v_head_dim) == tuple(DEEPSEEK_V3.values())
    assert Gemma3TextConfig.default_theta == {"global": GEMMA3["global_base"], "local": GEMMA3["local_base"]}
    qwen2 = Qwen2VLRotaryEmbedding(Qwen2VLTextConfig(hidden_size=256, num_attention_heads=2))
    qwen3 = Qwen3VLTextRotaryEmbedding(Qwen3VLTextConfig(hidden_size=256, num_attention_heads=2, head_dim=128))
    assert tuple(qwen2.mrope_section) == QWEN_VL_MROPE["splits"]["sections"]
    assert tuple(qwen3.mrope_section) == QWEN_VL_MROPE["splits"]["interleaved"]
