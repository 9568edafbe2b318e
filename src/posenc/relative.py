r"""Relative positions inside the score: Shaw et al.'s clipped table, Transformer-XL's four terms, T5's buckets.

Three schemes that leave the token vectors alone and let the score of the query at :math:`m` with the key
at :math:`n` see the offset :math:`n - m` directly:

- **Shaw, Uszkoreit and Vaswani (2018)** add a learned vector :math:`a_{\operatorname{clip}(n - m, -K, K)}` to
  the key, one for each offset up to :math:`K` and one shared by everything farther;
- **Transformer-XL (Dai et al., 2019)** expands the score of added absolute positions into four terms and
  rewrites the two that mention a key position with a sinusoid of the offset and two learned vectors
  :math:`u`, :math:`v`;
- **T5 (Raffel et al., 2020)** adds a learned scalar per head and *bucket* of the offset: exact buckets
  for short offsets, logarithmically wider ones, and one last bucket for the largest offsets, which starts short of
  ``max_distance`` and holds every offset beyond it.
"""

from __future__ import annotations

import math

import numpy as np

from . import validation
from .sinusoidal import position_vectors


def offsets(n: int) -> np.ndarray:
    """The offset matrix :math:`D_{m,n} = n - m`, shape ``(n, n)``.

    >>> offsets(3)
    array([[ 0,  1,  2],
           [-1,  0,  1],
           [-2, -1,  0]])
    """
    n = validation.integer(n, "n", "offsets", minimum=0)
    return np.arange(n)[None, :] - np.arange(n)[:, None]


def shaw_scores(q: np.ndarray, k: np.ndarray, table: np.ndarray) -> np.ndarray:
    r"""Scores with Shaw et al.'s relative key vectors,
    :math:`S_{m,n} = q_m^\top\big(k_n + a_{\operatorname{clip}(n-m, -K, K)}\big)/\sqrt d`, shape ``(N, N)``, for
    queries and keys ``(N, d)`` (rows are positions) and a ``table`` ``(2K + 1, d)`` whose row :math:`K + D` is
    :math:`a_D`, the vector of offset :math:`D`.
    """
    who = "shaw_scores"
    q, k = validation.matrix(q, "q", who), validation.matrix(k, "k", who)
    table = validation.matrix(table, "table", who)
    if q.shape != k.shape or table.shape[1] != q.shape[1] or table.shape[0] % 2 == 0 or table.shape[0] < 3:
        raise ValueError(f"{who}: need q and k of one shape (N, d) and a table of shape (2K + 1, d) with K >= 1, "
                         f"got {q.shape}, {k.shape} and {table.shape}")
    clip = table.shape[0] // 2  # K
    relative_keys = table[np.clip(offsets(q.shape[0]), -clip, clip) + clip]  # (N, N, d): a_clip(n - m, -K, K)
    return (q @ k.T + np.einsum("md,mnd->mn", q, relative_keys)) / np.sqrt(q.shape[1])


def transformer_xl_terms(x: np.ndarray, w_q: np.ndarray, w_ke: np.ndarray, w_kr: np.ndarray, u: np.ndarray,
                         v: np.ndarray, *, base: float = 10000.0) -> dict[str, np.ndarray]:
    r"""Transformer-XL's four score terms for the tokens ``x`` (rows), each of shape ``(N, N)``.

    With :math:`q_m = W_Q x_m`, :math:`k_n = W_{K,E} x_n` and :math:`r_{m-n} = \mathrm{PE}(m - n)` the
    sinusoid of the query-minus-key distance (the paper's :math:`R_{i-j}`),

    .. math::
        S_{m,n} = \underbrace{q_m^\top k_n}_{\text{(a) content}}
                + \underbrace{q_m^\top W_{K,R}\, r_{m-n}}_{\text{(b) content-position}}
                + \underbrace{u^\top k_n}_{\text{(c) global content}}
                + \underbrace{v^\top W_{K,R}\, r_{m-n}}_{\text{(d) global position}} .

    ``w_q``, ``w_ke``, ``w_kr`` are :math:`W_Q`, :math:`W_{K,E}`, :math:`W_{K,R}` (shape ``(d, d_model)``;
    :math:`W_{K,R}` acts on position vectors of width ``d_model``); ``u`` and ``v`` have shape ``(d,)``. The
    scores are unscaled, as in the paper. Their sum depends on positions only through :math:`n - m`.
    """
    who = "transformer_xl_terms"
    x = validation.matrix(x, "x", who)
    w_q, w_ke, w_kr = (validation.matrix(w, name, who) for w, name in ((w_q, "w_q"), (w_ke, "w_ke"), (w_kr, "w_kr")))
    u, v = validation.real_array(u, "u", who, ndim=1), validation.real_array(v, "v", who, ndim=1)
    d, d_model = w_q.shape
    if w_ke.shape != (d, d_model) or w_kr.shape != (d, d_model) or x.shape[1] != d_model or u.shape != v.shape \
            or u.shape != (d,):
        raise ValueError(f"{who}: need x (N, d_model), w_q, w_ke, w_kr (d, d_model) and u, v (d,); got x "
                         f"{x.shape}, w_q {w_q.shape}, w_ke {w_ke.shape}, w_kr {w_kr.shape}, u {u.shape}, v {v.shape}")
    n = x.shape[0]
    q, k = x @ w_q.T, x @ w_ke.T
    distance = -offsets(n)  # m - n
    r = position_vectors(distance.ravel(), d_model, base).reshape(n, n, d_model) @ w_kr.T  # W_KR r_(m-n)
    return {"content": q @ k.T, "content-position": np.einsum("md,mnd->mn", q, r),
            "global content": np.broadcast_to(k @ u, (n, n)).copy(), "global position": r @ v}


def t5_bucket(relative_position, *, bidirectional: bool = True, num_buckets: int = 32,
              max_distance: int = 128) -> np.ndarray:
    r"""T5's bucket of each offset :math:`D = n - m` (``relative_position``, key minus query), as in the T5 code.

    Bidirectional: half the buckets for :math:`D \le 0`, half for :math:`D > 0` (offset by
    ``num_buckets // 2``), each half indexed by :math:`|D|`; causal (``bidirectional=False``): every
    :math:`D > 0` falls into bucket 0 and :math:`-D` is indexed. Within a half of :math:`B` buckets,
    distances below :math:`B/2` get a bucket each, and a distance :math:`\delta \ge B/2` gets

    .. math:: \frac B2 + \Big\lfloor \frac{\ln(\delta/(B/2))}{\ln(\text{max\_distance}/(B/2))}
              \Big(B - \frac B2\Big)\Big\rfloor, \quad \text{capped at } B - 1 ,

    so the buckets widen logarithmically up to ``max_distance`` and everything farther shares the last.
    The logarithm is taken in float32, as in the Mesh TensorFlow and Hugging Face code.

    >>> t5_bucket(np.arange(-3, 4), num_buckets=8, max_distance=16)
    array([2, 2, 1, 0, 5, 6, 6])
    """
    who = "t5_bucket"
    position = validation.real_array(relative_position, "relative_position", who)
    if not np.all(position == np.round(position)):
        fractional = position[position != np.round(position)][:3]
        raise ValueError(f"{who}: relative_position must hold whole numbers (offsets), got {fractional}")
    if not isinstance(bidirectional, bool):
        raise TypeError(f"{who}: bidirectional must be True or False, got {bidirectional!r}")
    num_buckets = validation.integer(num_buckets, "num_buckets", who, minimum=4 if bidirectional else 2)
    max_distance = validation.integer(max_distance, "max_distance", who, minimum=1)
    position = position.astype(np.int64)
    buckets = np.zeros(position.shape, dtype=np.int64)
    if bidirectional:
        num_buckets //= 2
        buckets += (position > 0) * num_buckets
        distance = np.abs(position)
    else:
        distance = -np.minimum(position, 0)
    max_exact = num_buckets // 2
    if max_distance <= max_exact:
        raise ValueError(f"{who}: max_distance must exceed the {max_exact} exact buckets, "
                         f"got max_distance={max_distance}")
    with np.errstate(divide="ignore"):
        scaled = (np.log(distance.astype(np.float32) / np.float32(max_exact))
                  / np.float32(math.log(max_distance / max_exact)) * np.float32(num_buckets - max_exact))
    large = max_exact + np.where(distance < max_exact, 0, scaled).astype(np.int64)
    return buckets + np.where(distance < max_exact, distance, np.minimum(large, num_buckets - 1))
