"""The claims checked in chapter 3, *A ladder of frequencies*

The sinusoidal table's offset identity, far and near, the similarity of neighbours as the table widens, the shift
matrix M_k and its turns, the lecture's similarity, and the four terms of a score once positions are added to content.
"""

from __future__ import annotations

import numpy as np

from posenc import sinusoidal
from posenc.geometry import rotation_2d
from posenc.scores import toeplitz_deviation
from posenc.sinusoidal import (
    added_encoding_score_terms,
    position_vectors,
    shift_matrix,
    similarity,
    similarity_from_offset,
    sinusoidal_table,
)

from .result import ClaimResult, angle_tolerance, claim_result


def sinusoidal_offset(m: float, n, d: int = 64, base: float = 10000.0) -> ClaimResult:
    """:math:`\\mathrm{PE}(m)\\cdot\\mathrm{PE}(n) = \\sum_j\\cos(\\theta_j(n-m))`, a function of ``n - m`` alone."""
    n = np.atleast_1d(np.asarray(n, dtype=np.float64))
    return claim_result("PE(m).PE(n) = sum_j cos(theta_j (n - m))",
                        similarity(m, n, d, base) - similarity_from_offset(n - m, d, base), 1e-9)


def far_pair_matches_near_pair(far: float, near: float, offset: float, d: int = 64,
                               base: float = 10000.0) -> ClaimResult:
    r""":math:`\mathrm{PE}(f)\cdot\mathrm{PE}(f + k) = \mathrm{PE}(n)\cdot\mathrm{PE}(n + k)`: a pair of positions far
    into the sequence is exactly as similar as a pair with the same offset near its start. Tolerance: the
    round-off of :math:`d/2` cosines of angles up to :math:`f + k` radians."""
    far_pair = position_vectors([far, far + offset], d, base)
    near_pair = position_vectors([near, near + offset], d, base)
    return claim_result(f"PE({far:g})·PE({far + offset:g}) = PE({near:g})·PE({near + offset:g})",
                        far_pair[0] @ far_pair[1] - near_pair[0] @ near_pair[1],
                        d / 2 * angle_tolerance(far, near, offset))


def neighbour_similarity_grows_with_width(offset: float = 1.0, widths=range(2, 1026, 2),
                                          base: float = 10000.0) -> ClaimResult:
    r"""The similarity :math:`\frac{2}{d}\sum_j \cos(\theta_j k)` of two positions ``offset`` apart never falls
    as the table widens through ``widths`` (increasing even :math:`d`); the deviation is the largest fall from
    one width to the next (0 if none).

    A finite check, not a proof: at offset 1 it holds for every even :math:`d` up to 1024; at offset 6 it fails
    (the similarity drops from :math:`d = 10` to :math:`d = 12`)."""
    widths = np.asarray(list(widths))
    if widths.size < 2 or np.any(np.diff(widths) <= 0):
        raise ValueError(f"neighbour_similarity_grows_with_width: widths must increase, got {widths.tolist()}")
    similarities = np.array([similarity_from_offset(np.array([offset]), int(d), base)[0] / (d / 2) for d in widths])
    return claim_result(f"similarity at offset {offset:g} grows with d = {widths[0]}..{widths[-1]}",
                        np.maximum(-np.diff(similarities), 0.0), 0.0)


def sinusoidal_cosine_similarity(m: float, n: float, d: int = 64, base: float = 10000.0) -> ClaimResult:
    r"""The rescaled dot product :math:`\mathrm{PE}(m)\cdot\mathrm{PE}(n)/(d/2)` is the cosine similarity
    :math:`\mathrm{PE}(m)\cdot\mathrm{PE}(n) / (\|\mathrm{PE}(m)\|\,\|\mathrm{PE}(n)\|)`, because every
    position vector has length :math:`\sqrt{d/2}`."""
    pe_m, pe_n = position_vectors([m, n], d, base)
    cosine = pe_m @ pe_n / (np.linalg.norm(pe_m) * np.linalg.norm(pe_n))
    scaled = similarity(m, [n], d, base)[0] / (d / 2)
    return claim_result(f"PE({m:g})·PE({n:g})/(d/2) is the cosine similarity, d={d}", scaled - cosine)


def sinusoidal_shift(k: float, n_positions: int = 64, d: int = 64, base: float = 10000.0) -> ClaimResult:
    """:math:`\\mathrm{PE}(p+k) = M_k\\,\\mathrm{PE}(p)` for ``p = 0..n_positions-1``, one fixed :math:`M_k`."""
    table = sinusoidal_table(n_positions, d, base)
    shifted = position_vectors(np.arange(n_positions) + k, d, base)
    return claim_result("PE(p+k) = M_k PE(p)", shifted - table @ shift_matrix(k, d, base).T, 1e-9)


def shift_blocks_turn_clockwise(k: float, d: int = 64, base: float = 10000.0) -> ClaimResult:
    r"""In the table's (sin, cos) order, block :math:`j` of :math:`M_k` is the clockwise turn
    :math:`R(-k\theta_j)`, with :math:`R(\alpha)` the counter-clockwise rotation of the plane.

    The deviation is the largest entry of :math:`M_k - \operatorname{diag}_j R(-k\theta_j)`, the right-hand
    side built block by block from :func:`posenc.geometry.rotation_2d`, not from the shared builder.
    """
    m_k = shift_matrix(k, d, base)
    expected = np.zeros((d, d))
    for j, theta in enumerate(sinusoidal.frequencies(d, base)):
        expected[2 * j : 2 * j + 2, 2 * j : 2 * j + 2] = rotation_2d(-k * theta)
    return claim_result(f"M_{k:g}'s blocks are R(-k theta_j) (clockwise), d={d}", m_k - expected, angle_tolerance(k))


def added_encoding_expansion(n: int = 16, d_model: int = 16, seed: int = 0) -> ClaimResult:
    r""":math:`(x_m + \mathrm{PE}(m))^\top A (x_n + \mathrm{PE}(n))` is the sum of its four terms (content and
    position, each with each), for random content, random weights and the sinusoidal :math:`\mathrm{PE}(m)`."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d_model))
    w_q, w_k = (rng.standard_normal((d_model, d_model)) / np.sqrt(d_model) for _ in range(2))
    terms = added_encoding_score_terms(x, w_q, w_k)
    parts = sum(terms[name] for name in ("content-content", "content-position", "position-content",
                                         "position-position"))
    return claim_result("(x_m+PE(m))^T A (x_n+PE(n)) = sum of the four terms", terms["total"] - parts, 1e-10)


def repeated_token_terms(n: int = 16, d_model: int = 16, seed: int = 0, repeated: bool = True) -> ClaimResult:
    r"""For one token repeated at every position, :math:`x_m = x`: the content-content term is one constant,
    the content-position term :math:`x^\top A\,\mathrm{PE}_n` is the same down each column (a function of the
    key position :math:`n` alone), the position-content term :math:`\mathrm{PE}_m^\top A x` the same along each
    row (of :math:`m` alone), and with :math:`A = I` the position-position term is constant along every
    diagonal (of :math:`n - m` alone). The deviation is the largest departure of the four. With
    ``repeated=False`` every position holds its own random token, and the check fails."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d_model))
    content = np.tile(x[0], (n, 1)) if repeated else x
    w_q, w_k = (rng.standard_normal((d_model, d_model)) / np.sqrt(d_model) for _ in range(2))
    terms = added_encoding_score_terms(content, w_q, w_k)
    identity = added_encoding_score_terms(content, np.eye(d_model), np.eye(d_model))["position-position"]
    deviations = [np.ptp(terms["content-content"]),
                  np.max(np.ptp(terms["content-position"], axis=0)),  # down each column n
                  np.max(np.ptp(terms["position-content"], axis=1)),  # along each row m
                  toeplitz_deviation(identity)]
    kind = "repeated token" if repeated else "a different token at each position"
    return claim_result(f"{kind}: content-content constant, content-position of n, position-content of m, "
                        "PE_m^T PE_n of n - m", deviations, 1e-10)
