"""The settings of chapter 12, *Sinks and stacks*

The configurations the chapter computes with are transformers' defaults, the values its configuration classes set
when given no arguments (GPT-OSS, ``cohere2``, Qwen3-Next, Kimi Linear); tests/ch12/test_ch12.py compares each with
transformers. A default need not be a release's: ``RELEASED`` holds what the released configurations state where
they differ, quoted from the checkpoints' ``config.json`` and not tested here. ``STREAMING_LLM`` holds the cache
sizes of StreamingLLM's code and ``XIAO_TABLE_1`` the perplexities the chapter quotes from Xiao et al. (2024).
"""

from __future__ import annotations

GPT_OSS = {"n_layers": 36, "window": 128, "d": 64, "base": 150000.0, "factor": 32.0, "original_context": 4096,
           "beta_fast": 32.0, "beta_slow": 1.0, "truncate": False}  # GptOssConfig defaults (YaRN)
COHERE2 = {"n_layers": 40, "window": 4096, "d": 128, "base": 10000.0,
           "every": 4}  # Cohere2Config defaults; every: one layer in so many is full attention
QWEN3_NEXT = {"n_layers": 48, "d": 256, "partial_rotary_factor": 0.25, "base": 10000.0,
              "every": 4}  # Qwen3NextConfig defaults
KIMI_LINEAR = {"n_layers": 27, "d_nope": 128, "d_rope": 64}  # KimiLinearConfig defaults

RELEASED = {
    "gpt-oss-20b": {"n_layers": 24},
    "command-r7b": {"n_layers": 32, "base": 50000.0, "window": 4096, "every": 4},
    "command-a": {"n_layers": 64, "base": 50000.0, "window": 4096, "every": 4},
    "qwen3-next-80b-a3b": {"base": 1e7},
    "kimi-linear-48b-a3b": {"full_attn_layers": [4, 8, 12, 16, 20, 24, 27]},  # counted from 1
}
STREAMING_LLM = {"keyword_defaults": (4, 512), "demo": (4, 2000), "perplexity_script": (1, 255)}  # (sinks, window)
XIAO_TABLE_1 = {"line_breaks": 5.60, "first_four": 5.40, "window": 5158.0}  # Llama-2-13B, PG19, four kept tokens
