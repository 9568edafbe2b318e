r"""Multi-head latent attention (DeepSeek-V2, V3) and why its rotary part is decoupled.

The key of head :math:`h` at position :math:`n` is decompressed from a latent vector that all heads share,
:math:`k^{(h)}_n = W^{(h)}_{UK}\,\tilde x_n` with :math:`\tilde x_n = W_{DKV}\,x_n` of width :math:`d_\text{lat}`.
Without rotation the up-projection moves to the query side,

.. math:: q^\top W_{UK}\,\tilde x_n = (W_{UK}^\top q)^\top\,\tilde x_n ,

so the cache holds only the latents and the keys are never formed (the "absorbed" form). A rotation
:math:`\Theta_n` between :math:`W_{UK}` and the query breaks this: :math:`(\Theta_m q)^\top \Theta_n W_{UK}\tilde x_n
= (W_{UK}^\top \Theta_{n-m}^\top q)^\top \tilde x_n` asks for a different vector for every key. DeepSeek-V2 therefore
rotates only a few extra coordinates, with one rotated key per token shared by all heads.
"""

from __future__ import annotations

import numpy as np

from . import validation
from .rotary import _rope


def mla_scores(q_nope, q_rope, latents, k_rope, w_uk) -> np.ndarray:
    r"""The scores of multi-head latent attention in the absorbed form (unscaled, no mask), for the tokens at
    positions :math:`0, 1, \ldots` and RoPE's ladder with base 10,000.

    For head :math:`h`, query position :math:`m` and key position :math:`n`,

    .. math:: S^{(h)}_{mn} = \big(W^{(h)\top}_{UK}\, q^{\text{nope}}_{h,m}\big)^\top \tilde x_n
              + \big(\Theta_m\, q^{\text{rope}}_{h,m}\big)^\top \Theta_n\, k^{\text{rope}}_n ,

    which equals the score of the explicit keys :math:`[W^{(h)}_{UK}\tilde x_n,\; \Theta_n k^{\text{rope}}_n]`
    against the queries :math:`[q^{\text{nope}}_{h,m},\; \Theta_m q^{\text{rope}}_{h,m}]`. The rotation is RoPE in the
    interleaved layout (DeepSeek's checkpoints store their rotary coordinates in pairs, ``rope_interleave``).

    Parameters
    ----------
    q_nope : array, shape ``(heads, seq, d_nope)``
        The queries' content part.
    q_rope : array, shape ``(heads, seq, d_rope)``, ``d_rope`` even
        The queries' rotary part, before rotation.
    latents : array, shape ``(seq, d_lat)``
        The cached latents :math:`\tilde x_n`, shared by all heads.
    k_rope : array, shape ``(seq, d_rope)``
        The rotary key of each token, before rotation, shared by all heads.
    w_uk : array, shape ``(heads, d_nope, d_lat)``
        Each head's key up-projection :math:`W^{(h)}_{UK}`.

    Returns
    -------
    ndarray, shape ``(heads, seq, seq)``.

    Examples
    --------
    >>> w_uk = np.array([[[1.0, 2.0]]])              # one head, d_nope = 1, d_lat = 2
    >>> mla_scores(np.ones((1, 2, 1)), np.zeros((1, 2, 2)), np.eye(2), np.zeros((2, 2)), w_uk)
    array([[[1., 2.],
            [1., 2.]]])
    """
    who = "mla_scores"
    q_nope, q_rope, w_uk = (validation.real_array(a, name, who, ndim=3)
                            for a, name in ((q_nope, "q_nope"), (q_rope, "q_rope"), (w_uk, "w_uk")))
    latents, k_rope = (validation.matrix(a, name, who) for a, name in ((latents, "latents"), (k_rope, "k_rope")))
    _check_shapes(q_nope, q_rope, latents, k_rope, w_uk, who)
    positions = np.arange(len(latents))
    absorbed = q_nope @ w_uk  # W_UK^T q for every head and query: (heads, seq, d_lat)
    content = absorbed @ latents.T  # against the latents themselves, never decompressed into keys
    rotary = _rope(q_rope, positions) @ _rope(k_rope, positions).T  # one shared key per token
    return content + rotary


def _check_shapes(q_nope, q_rope, latents, k_rope, w_uk, who: str) -> None:
    """Heads, positions and widths of the five arrays of :func:`mla_scores` must agree."""
    heads, seq, d_nope = q_nope.shape
    if q_rope.shape[:2] != (heads, seq) or k_rope.shape != (seq, q_rope.shape[2]) or latents.shape[0] != seq:
        raise ValueError(f"{who}: q_rope must have shape ({heads}, {seq}, d_rope), k_rope ({seq}, d_rope) and "
                         f"latents ({seq}, d_lat); got {q_rope.shape}, {k_rope.shape} and {latents.shape}")
    if w_uk.shape != (heads, d_nope, latents.shape[1]):
        raise ValueError(f"{who}: w_uk must have shape (heads, d_nope, d_lat) = ({heads}, {d_nope}, "
                         f"{latents.shape[1]}), got {w_uk.shape}")
    validation.even_dimension(q_rope.shape[2], who, "d_rope")
