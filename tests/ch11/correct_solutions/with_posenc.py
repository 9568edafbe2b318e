"""The chapter's own functions: scaling.longrope at the batch's length times each position (its checks raise the
ValueError for an odd d or a list of the wrong length); latent_attention.mla_scores on two slots (the query in the
first, the latent and rotary key in the second, at positions m and n), reading one entry, and the content part alone
when d_rope = 0, which mla_scores refuses."""

import numpy as np

from posenc import scaling
from posenc.latent_attention import mla_scores


def longrope_angles(d, short_factor, long_factor, positions, original_context, base=10000.0):
    positions = np.asarray(positions)
    length = positions.max() + 1 if positions.size else 1  # no positions: any length, for posenc's checks
    return positions[:, None] * scaling.longrope(d, short_factor, long_factor, length, original_context, base)


def latent_score(q_nope, q_rope, latent, k_rope, w_uk, m, n, base=10000.0):
    if len(q_rope) == 0:
        return float(q_nope @ w_uk @ latent)
    zeros = np.zeros_like
    queries = np.stack([q_nope, zeros(q_nope)])[None], np.stack([q_rope, zeros(q_rope)])[None]
    scores = mla_scores(*queries, np.stack([zeros(latent), latent]), np.stack([zeros(k_rope), k_rope]), w_uk[None],
                        [m, n], base=base)
    return scores[0, 0, 1]
