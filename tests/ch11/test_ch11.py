"""Chapter 11, *RoPE in current models*: the published settings its page computes with are transformers' own.
Its comparisons with the transformers code that runs each model live with the ideas they test
(test_scaling, test_mixed_layers, test_rotary_axes, test_latent_attention)."""

from __future__ import annotations

from conftest import page_setting
from transformers import DeepseekV3Config, Gemma3TextConfig, Llama4TextConfig, Qwen2VLTextConfig, Qwen3VLTextConfig
from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLRotaryEmbedding
from transformers.models.qwen3_vl.modeling_qwen3_vl import Qwen3VLTextRotaryEmbedding

CHAPTER = "11_todays_models"


def test_the_chapters_settings_are_transformers_defaults():
    llama4, deepseek = Llama4TextConfig(), DeepseekV3Config()
    assert page_setting(CHAPTER, "llama4") == {
        "n_layers": llama4.num_hidden_layers, "nope_every": llama4.no_rope_layer_interval,
        "chunk": llama4.attention_chunk_size, "attn_scale": llama4.attn_scale, "floor_scale": llama4.floor_scale}
    assert page_setting(CHAPTER, "deepseek_v3") == {
        "heads": deepseek.num_attention_heads, "d_nope": deepseek.qk_nope_head_dim,
        "d_rope": deepseek.qk_rope_head_dim, "d_lat": deepseek.kv_lora_rank, "d_value": deepseek.v_head_dim}
    gemma = page_setting(CHAPTER, "gemma")
    assert Gemma3TextConfig.default_theta == {"global": gemma["global_base"], "local": gemma["local_base"]}
    qwen2 = Qwen2VLRotaryEmbedding(Qwen2VLTextConfig(hidden_size=256, num_attention_heads=2))
    qwen3 = Qwen3VLTextRotaryEmbedding(Qwen3VLTextConfig(hidden_size=256, num_attention_heads=2, head_dim=128))
    splits = page_setting(CHAPTER, "splits")
    assert tuple(qwen2.mrope_section) == splits["sections"]
    assert tuple(qwen3.mrope_section) == splits["interleaved"]
