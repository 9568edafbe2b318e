"""The settings of chapter 12, *Sinks and stacks*

The published configurations the chapter computes with, as transformers' configuration classes set them by
default (GPT-OSS, Command A's ``cohere2``, Qwen3-Next, Kimi Linear); each is compared with transformers in
tests/ch12/test_ch12.py.
"""

from __future__ import annotations

GPT_OSS = {"n_layers": 36, "window": 128, "d": 64, "base": 150000.0, "factor": 32.0, "original_context": 4096,
           "beta_fast": 32.0, "beta_slow": 1.0, "truncate": False}  # GptOssConfig defaults (YaRN)
COHERE2 = {"n_layers": 40, "window": 4096, "d": 128, "base": 10000.0}  # Cohere2Config defaults
QWEN3_NEXT = {"n_layers": 48, "d": 256, "partial_rotary_factor": 0.25, "base": 10000.0}  # Qwen3NextConfig defaults
KIMI_LINEAR = {"n_layers": 27, "d_nope": 128, "d_rope": 64}  # KimiLinearConfig defaults
