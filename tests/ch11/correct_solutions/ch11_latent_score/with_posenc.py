"""The chapter's latent_attention.mla_scores on two slots (the query in the first, the latent and rotary key in the
second, at the positions m and n), reading one entry; the content part alone when d_rope = 0, which mla_scores
refuses."""

import numpy as np

from posenc.latent_attention import mla_scores


def latent_score(q_nope, q_rope, latent, k_rope, w_uk, m, n, base=10000.0):
    if len(q_rope) == 0:
        return float(q_nope @ w_uk @ latent)
    zeros = np.zeros_like
    queries = np.stack([q_nope, zeros(q_nope)])[None], np.stack([q_rope, zeros(q_rope)])[None]
    scores = mla_scores(*queries, np.stack([zeros(latent), latent]), np.stack([zeros(k_rope), k_rope]), w_uk[None],
                        [m, n], base=base)
    return scores[0, 0, 1]
