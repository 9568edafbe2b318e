"""float32 torch, the rotary part as in Meta's and DeepSeek's code (view pairs as complex, multiply by a polar
tensor), the content part absorbed with torch.matmul; a 0-d tensor comes back."""

import torch


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
