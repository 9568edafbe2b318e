"""float32 torch: the angles as transformers' longrope initialisation, inv_freq = 1 / (factors * base ** (2j/d))
chosen by the largest position + 1, then the outer product with the positions; the rotary part as Meta's and
DeepSeek's code (pairs viewed as complex times a polar tensor), the content part absorbed with torch.matmul, a 0-d
tensor returned."""

import torch


def longrope_angles(d, short_factor, long_factor, positions, original_context, base=10000.0):
    if d % 2 or len(short_factor) != d // 2 or len(long_factor) != d // 2:
        raise ValueError(f"longrope: d = {d} must be even and each factor list must hold d/2 numbers")
    positions = torch.as_tensor(positions, dtype=torch.float32)
    if positions.numel() == 0:
        return torch.zeros(0, d // 2)
    seq_len = int(positions.max()) + 1
    ext_factors = torch.tensor(long_factor if seq_len > original_context else short_factor, dtype=torch.float32)
    inv_freq = 1.0 / (ext_factors * base ** (torch.arange(0, d, 2, dtype=torch.float32) / d))
    return torch.outer(positions, inv_freq)


def latent_score(q_nope, q_rope, latent, k_rope, w_uk, m, n, base=10000.0):
    q_nope, q_rope, latent, k_rope, w_uk = (torch.as_tensor(a, dtype=torch.float32)
                                            for a in (q_nope, q_rope, latent, k_rope, w_uk))
    d_rope = q_rope.shape[-1]
    if d_rope % 2:
        raise ValueError(f"the rotary width {d_rope} is odd")
    absorbed = torch.matmul(w_uk.T, q_nope)
    score = absorbed @ latent
    if d_rope:
        freqs = 1.0 / base ** (torch.arange(0, d_rope, 2, dtype=torch.float32) / d_rope)
        turned = [torch.view_as_real(torch.view_as_complex(v.reshape(-1, 2).contiguous())
                                     * torch.polar(torch.ones_like(freqs), p * freqs)).flatten()
                  for v, p in ((q_rope, m), (k_rope, n))]
        score = score + turned[0] @ turned[1]
    return score
