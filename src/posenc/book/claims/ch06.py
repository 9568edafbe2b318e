"""The claims checked in chapter 6, *The score matrix is Toeplitz*

Constant diagonals (of the scores, not of the causal weights), circulant against Toeplitz, convolution layers and
their padding, the DFT, the score as a sinusoid and as a trigonometric polynomial of the offset, and what a
softmax makes of a profile: the score gap that buys a share of the weight, and the tie that no length breaks.
"""

from __future__ import annotations

import numpy as np

from posenc import fourier, scores, sinusoidal, validation
from posenc.attention import causal_mask, softmax
from posenc.relative import offsets
from posenc.rotary import rope_matrix
from posenc.scores import repeated_token_scores, toeplitz_deviation

from .result import ClaimResult, angle_tolerance, claim_result, plane_rotations


def repeated_token_toeplitz(n: int = 16, d: int = 64, seed: int = 0) -> ClaimResult:
    """The RoPE score matrix of one token repeated ``n`` times is Toeplitz."""
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    scores = repeated_token_scores(q, k, n)
    return ClaimResult("repeated token: S[m, n] = S[m+1, n+1]", toeplitz_deviation(scores), 1e-10)


def causal_weights_toeplitz(n: int = 16, d: int = 64, seed: int = 0) -> ClaimResult:
    r"""The same test on the causal softmax weights of the same scores, :math:`A_{m,n} = e^{S_{m,n}} /
    \sum_{n' \le m} e^{S_{m,n'}}` for :math:`n \le m` and 0 above the diagonal. Row :math:`m` is normalised over
    its own :math:`m + 1` keys, so :math:`A_{0,0} = 1` while :math:`A_{1,1} < 1`: the check fails, as it must."""
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    weights = softmax(np.where(causal_mask(n), repeated_token_scores(q, k, n), -np.inf))
    return ClaimResult("causal weights: A[m, n] = A[m+1, n+1]", toeplitz_deviation(weights), 1e-10)


def circulant_is_toeplitz(n: int = 6, seed: int = 0) -> ClaimResult:
    """A circulant matrix (random first row) has constant diagonals; exactly, since its entries are copies."""
    row = np.random.default_rng(seed).standard_normal(n)
    return ClaimResult("circulant C: C[m, n] = C[m+1, n+1]", toeplitz_deviation(scores.circulant(row)), 0.0)


def toeplitz_circulant_iff(n: int = 6, trials: int = 20, seed: int = 0) -> ClaimResult:
    """An ``n x n`` Toeplitz matrix with ``S[m, n] = f(n - m)`` is circulant if and only if
    ``f(D) = f(D - n)`` for ``D = 1, ..., n - 1``. Tried on random Toeplitz matrices, on Toeplitz matrices
    whose lower diagonals copy the wrapped upper ones, and on random circulant matrices; the deviation
    counts the matrices on which the two verdicts (circulant, condition met) disagree."""
    rng = np.random.default_rng(seed)
    offsets = np.arange(1, n)
    disagreements = 0
    for trial in range(trials):
        row, column = rng.standard_normal((2, n))  # f(0..n-1) and f(0, -1, ..., -(n-1))
        if trial % 3 == 1:
            column[1:] = row[n - offsets]  # f(-D') = f(n - D'): the wrapped copy
        matrix = scores.circulant(row) if trial % 3 == 2 else scores.toeplitz(np.r_[row[0], column[1:]], row)
        f_up, f_down = matrix[0, offsets], matrix[n - offsets, 0]  # f(D) and f(D - n)
        condition = bool(np.all(f_up == f_down))
        is_circulant = scores.circulant_deviation(matrix) == 0.0
        disagreements += condition != is_circulant
    return ClaimResult("Toeplitz S is circulant <=> f(D) = f(D - N) for D = 1..N-1", float(disagreements), 0.0)


PADDINGS = {"zeros": "constant", "circular": "wrap"}  # a layer's padding mode, and numpy.pad's name for it


def convolution_matrix(filter_weights, n: int, padding: str = "zeros") -> np.ndarray:
    """The ``n x n`` matrix of a convolution layer with one input and one output channel, an odd number of
    weights and as many outputs as inputs, computed column by column: column ``c`` is the layer's output for the
    unit signal at ``c``. Like a convolution layer it cross-correlates, ``y_m = sum_t w_t x_(m + t - r)`` with
    ``r = len(w) // 2``; beyond both ends it reads zeros (``padding="zeros"``) or the other end of the signal
    (``padding="circular"``), as ``torch.nn.Conv1d``'s ``padding_mode`` says."""
    who = "convolution_matrix"
    w = validation.real_vector(filter_weights, "filter_weights", who)
    n, padding = validation.integer(n, "n", who, minimum=1), validation.option(padding, tuple(PADDINGS), "padding", who)
    if w.size % 2 == 0:
        raise ValueError(f"{who}: the filter needs an odd number of weights to keep the length, got {w.size}")
    padded = [np.pad(unit, w.size // 2, mode=PADDINGS[padding]) for unit in np.eye(n)]
    return np.stack([np.correlate(signal, w, mode="valid") for signal in padded], axis=1)


def convolution_is_banded_toeplitz(n: int = 16, width: int = 5, seed: int = 0) -> ClaimResult:
    """A zero-padded convolution layer's matrix is Toeplitz, ``T[m, n] = w(n - m + r)``, and zero off the band
    ``|n - m| <= r``; the deviation is the largest entry off that description."""
    w = np.random.default_rng(seed).standard_normal(width)
    matrix = convolution_matrix(w, n)
    r = width // 2
    m, c = np.indices((n, n))
    inside = np.abs(c - m) <= r
    expected = np.where(inside, w[np.clip(c - m + r, 0, width - 1)], 0.0)
    return claim_result(f"zero-padded convolution, filter of {width}: T[m, n] = w(n - m + {r}), 0 off the band",
                        matrix - expected)


def circular_convolution_is_circulant(n: int = 16, width: int = 5, seed: int = 0) -> ClaimResult:
    """A circularly padded convolution layer's matrix is circulant, ``C[m, n] = g((n - m) mod N)`` with
    ``g((t - r) mod N) = w_t`` (taps that land on one entry add up); the deviation is the largest entry off it."""
    w = np.random.default_rng(seed).standard_normal(width)
    first_row = np.zeros(n)
    np.add.at(first_row, (np.arange(width) - width // 2) % n, w)
    return claim_result(f"circularly padded convolution, filter of {width}: circulant",
                        convolution_matrix(w, n, padding="circular") - scores.circulant(first_row))


def single_hand_circulant(n_positions: int = 6, seed: int = 0) -> ClaimResult:
    """With :math:`\\theta = 2\\pi/N`, one hand's :math:`N\\times N` repeated-token score matrix is circulant."""
    q, k = np.random.default_rng(seed).standard_normal((2, 2))
    s = scores.plane_scores(q, k, n_positions, 2 * np.pi / n_positions)
    return claim_result("theta = 2 pi / N: S[m, n] = S[(m+1) mod N, (n+1) mod N]", scores.circulant_deviation(s),
                        angle_tolerance(2 * np.pi))


def offset_sinusoid(theta: float, n_offsets: int = 64, seed: int = 0) -> ClaimResult:
    """One hand (:math:`d = 2`):
    :math:`q^\\top R_\\Delta k/\\sqrt2 = \\|q\\|\\|k\\|\\cos(\\Delta\\theta + \\angle(q, k))/\\sqrt2`
    for :math:`|\\Delta| \\le` ``n_offsets``, :math:`\\angle(q, k)` the angle from ``q`` to ``k``."""
    q, k = np.random.default_rng(seed).standard_normal((2, 2))
    offsets = np.arange(-n_offsets, n_offsets + 1)
    direct = np.einsum("i,sij,j->s", q, plane_rotations(offsets * theta), k) / np.sqrt(2)
    return claim_result("q^T R_D k / sqrt(2) = |q||k| cos(D theta + angle(q, k)) / sqrt(2)",
                        direct - scores.plane_score_from_offset(q, k, offsets, theta),
                        angle_tolerance(n_offsets * theta))


def offset_trig_polynomial(d: int = 64, n: int = 32, base: float = 10000.0, seed: int = 0,
                           swap: bool = False) -> ClaimResult:
    r"""The repeated-token score matrix is :math:`S_{m,n} = \operatorname{Re}\sum_j h_j e^{i(n-m)\theta_j}` with
    :math:`h_j = \overline{z_j(q)}z_j(k)/\sqrt d`. With ``swap`` the coefficients are built with the
    roles of ``q`` and ``k`` exchanged, which gives :math:`S_{n,m}` instead: a counterexample that fails."""
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    h = fourier.offset_coefficients(k, q) if swap else fourier.offset_coefficients(q, k)
    polynomial = fourier.trig_polynomial(h, offsets(n), sinusoidal.frequencies(d, base))
    deviation = repeated_token_scores(q, k, n, base=base) - polynomial
    return claim_result("S[m, n] = Re sum_j h_j e^(i (n - m) theta_j)", deviation, np.sqrt(d) * angle_tolerance(n))


def reachable_profile(d: int = 16, n_offsets: int = 32, base: float = 10000.0, seed: int = 0,
                      in_span: bool = True) -> ClaimResult:
    r"""A target profile over the offsets :math:`-(N-1), \ldots, 0` is fitted by least squares over the
    :math:`h_j`, the fit is reached by a query and key (:func:`posenc.fourier.pair_for_coefficients`), and
    that head's actual RoPE scores are compared with the target (the fit keeps every direction numpy can
    resolve, ``rcond=None``). A target that is a trigonometric polynomial
    with the head's frequencies (``in_span``) is met to round-off; random values at more offsets than the
    head has real coefficients (``in_span=False``) are not: the check fails, as it must."""
    rng = np.random.default_rng(seed)
    theta, offsets = sinusoidal.frequencies(d, base), np.arange(1 - n_offsets, 1)
    if in_span:
        target = fourier.trig_polynomial(rng.standard_normal(d // 2) + 1j * rng.standard_normal(d // 2),
                                         offsets, theta)
    else:
        target = rng.standard_normal(n_offsets)
    q, k = fourier.pair_for_coefficients(fourier.fit_coefficients(offsets, target, theta, rcond=None))
    return claim_result("a head reaches every profile Re sum_j h_j e^(i Delta theta_j)",
                        scores.offset_scores(q, k, offsets, base=base) - target, 1e-9)


def dft_diagonalises_circulant(n: int = 8, seed: int = 0, wrap: bool = True) -> ClaimResult:
    r""":math:`C = F^*\operatorname{diag}(\hat g)F` for a circulant :math:`C` with a random first row, where
    :math:`F` is the unitary DFT matrix and :math:`\hat g` = ``numpy.fft.fft`` of the first column. With
    ``wrap=False`` the matrix is a random Toeplitz matrix that is not circulant, and the identity fails."""
    rng = np.random.default_rng(seed)
    row = rng.standard_normal(n)
    c = scores.circulant(row) if wrap else scores.toeplitz(rng.standard_normal(n), row)
    f = fourier.dft_matrix(n)
    rebuilt = f.conj().T @ np.diag(np.fft.fft(c[:, 0])) @ f
    return claim_result("C = F* diag(fft(first column)) F", rebuilt - c, 1e-12 * n)


def circulant_filters_waves(n: int = 8, seed: int = 0) -> ClaimResult:
    r"""A circulant :math:`C` is a filter: :math:`\mathrm{fft}(Cx) = \hat g \odot \mathrm{fft}(x)` for a random
    signal :math:`x`, :math:`\hat g` the eigenvalues (``posenc.fourier.circulant_eigenvalues``)."""
    rng = np.random.default_rng(seed)
    first_row, x = rng.standard_normal((2, n))
    c = scores.circulant(first_row)
    return claim_result("fft(Cx) = g-hat * fft(x)",
                        np.fft.fft(c @ x) - fourier.circulant_eigenvalues(first_row) * np.fft.fft(x), 1e-12 * n)


def near_repeat_bound(lag: int, theta: float = 1.0, span: int = 1000, seed: int = 0) -> ClaimResult:
    r"""One hand's score changes over ``lag`` offsets by at most the amplitude :math:`\|q\|\|k\|/\sqrt2` times
    :math:`\epsilon`, the distance of :math:`\ell\theta` from a whole number of turns, at every offset up to
    ``span`` either way; the deviation is the largest excess over the bound (0 if none)."""
    q, k = np.random.default_rng(seed).standard_normal((2, 2))
    deltas = np.arange(-span, span + 1)
    amplitude = np.linalg.norm(q) * np.linalg.norm(k) / np.sqrt(2)
    epsilon = abs(np.angle(np.exp(1j * lag * theta)))  # distance to the nearest whole number of turns
    change = np.abs(scores.plane_score_from_offset(q, k, deltas + lag, theta)
                    - scores.plane_score_from_offset(q, k, deltas, theta))
    return claim_result(f"|s(D + {lag}) - s(D)| <= amplitude * epsilon", np.maximum(change - amplitude * epsilon, 0.0),
                        angle_tolerance(span + lag))


def one_turn_spectrum(n: int = 12, seed: int = 0) -> ClaimResult:
    r"""The repeated-token scores of one hand with :math:`\theta = 2\pi/N` (:math:`N \ge 3`) have the eigenvalues
    :math:`N\bar h_0/2` at :math:`\eta = 1`, :math:`Nh_0/2` at :math:`\eta = N - 1` and 0 elsewhere."""
    if n < 3:
        raise ValueError(f"one_turn_spectrum: needs n >= 3 (at n = {n} the frequencies 1 and n - 1 coincide)")
    q, k = np.random.default_rng(seed).standard_normal((2, 2))
    s = scores.plane_scores(q, k, n, 2 * np.pi / n)
    h = fourier.offset_coefficients(q, k)[0]
    predicted = np.zeros(n, dtype=complex)
    predicted[1], predicted[-1] = n * np.conj(h) / 2, n * h / 2
    return claim_result(f"theta = 2 pi / {n}: eigenvalues N conj(h_0)/2, N h_0/2 at eta = 1, N - 1, else 0",
                        fourier.circulant_eigenvalues(s[0]) - predicted, n * angle_tolerance(2 * np.pi * n))


def head_scores_circulant(n: int = 8, d: int = 8, whole_turns: bool = True, seed: int = 0) -> ClaimResult:
    r"""A head's repeated-token scores over :math:`N` positions, :math:`\operatorname{Re}\sum_j h_j
    e^{i(n-m)\theta_j}`, for random :math:`q`, :math:`k`: circulant when every :math:`N\theta_j` is a whole number
    of turns (``whole_turns``: :math:`\theta_j = 2\pi k_j/N` for random whole :math:`k_j`); on RoPE's ladder,
    where :math:`N\theta_0 = N` radians is never one, not, and the check fails."""
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, d))
    theta = (2 * np.pi * rng.integers(1, n, d // 2) / n) if whole_turns else sinusoidal.frequencies(d)
    matrix = fourier.trig_polynomial(fourier.offset_coefficients(q, k), offsets(n), theta)
    ladder = "whole turns in N" if whole_turns else "RoPE's ladder"
    return claim_result(f"{ladder}: the scores over N = {n} positions are circulant",
                        scores.circulant_deviation(matrix), np.sqrt(d) * angle_tolerance(2 * np.pi * n))


def gap_for_weight(n: int, weight: float) -> float:
    r"""The score gap :math:`\ln\big((N-1)\,\alpha^\star/(1-\alpha^\star)\big)` that guarantees one of ``n`` keys
    the softmax weight :math:`\alpha^\star` = ``weight`` when every other key scores at least that much less.

    >>> round(gap_for_weight(2, 0.5), 12)  # two keys, an even split: no gap needed
    0.0
    """
    n = validation.integer(n, "n", "gap_for_weight", minimum=2)
    weight = validation.real(weight, "weight", "gap_for_weight", above=0.0)
    if weight >= 1.0:
        raise ValueError(f"gap_for_weight: weight must be below 1 (no finite gap gives all of it), got {weight:g}")
    return float(np.log((n - 1) * weight / (1.0 - weight)))


def score_gap(profile, at: int) -> float:
    """How far ``profile[at]`` lies above the highest of the other entries (negative if it is not the highest).

    >>> score_gap([0.0, 3.0, 1.0], 1)
    2.0
    """
    profile = validation.real_vector(profile, "profile", "score_gap")
    return float(profile[at] - np.max(np.delete(profile, at)))


def gap_guarantees_weight(n: int = 32, weight: float = 0.9, d: int = 64, trials: int = 20, seed: int = 0,
                          gap_factor: float = 1.0) -> ClaimResult:
    r"""If a key scores at least :func:`gap_for_weight` above every other of the ``n`` keys, its softmax weight
    is at least ``weight``. Each trial draws a random head, finds the peak of its profile over the offsets
    :math:`1-N, \ldots, 0` and lengthens :math:`q` and :math:`k` so that the peak's gap is exactly ``gap_factor``
    times the required one; one more case puts every other score exactly that far below, where the bound is met
    with equality. The deviation is the largest shortfall of a peak's weight below ``weight``. With
    ``gap_factor < 1`` that last case falls short: the check fails, as it must, so no smaller gap guarantees.
    ``weight`` lies above :math:`1/N`, the share of ``n`` equal scores, so that the gap needed is positive."""
    if not 1.0 / n < weight < 1.0:
        raise ValueError(f"gap_guarantees_weight: weight must lie between 1/n and 1, got {weight:g} for n={n}")
    rng, needed = np.random.default_rng(seed), gap_factor * gap_for_weight(n, weight)
    window = np.arange(1 - n, 1)
    shares = []
    for _ in range(trials):
        q, k = rng.standard_normal((2, d))
        profile = scores.offset_scores(q, k, window)
        peak = int(np.argmax(profile))
        stretch = np.sqrt(needed / score_gap(profile, peak))  # every score, and every gap, grows by stretch**2
        shares.append(scores.last_query_weights(stretch * q, stretch * k, n)[peak])
    shares.append(softmax(np.r_[0.0, np.full(n - 1, -needed)])[0])
    return claim_result("score gap >= ln((N-1) α*/(1-α*)) to every other key => weight >= α*",
                        np.maximum(weight - np.array(shares), 0.0), 1e-12)


def tied_peak_weight(d: int = 64, n: int = 32, seed: int = 0, tie: bool = True,
                     lengths=(1.0, 2.0, 4.0, 8.0, 16.0)) -> ClaimResult:
    r"""With :math:`k = (\Theta_3 + \Theta_4)\,q` the profile is symmetric about :math:`\Delta = -3.5`, so the
    offsets -3 and -4 tie; then the offset -3 never gets more than half of the weight, however much
    :math:`q` and :math:`k` are lengthened (each of ``lengths``). With ``tie=False``, :math:`k = \Theta_3 q`
    peaks at -3 alone and long vectors give it nearly all the weight: the check fails, as it must."""
    q = np.random.default_rng(seed).standard_normal(d)
    k = (rope_matrix(3, d) + rope_matrix(4, d)) @ q if tie else rope_matrix(3, d) @ q
    shares = [scores.last_query_weights(length * q, length * k, n)[n - 4] for length in lengths]
    window = np.arange(1 - n, 1)
    top_two = set(window[np.argsort(scores.offset_scores(q, k, window))[-2:]].tolist())
    not_the_top = float(tie and top_two != {-4, -3})  # the tie must be for the top of the window
    return claim_result("two offsets tie for the peak: offset -3 gets at most 1/2 at any length",
                        np.r_[np.maximum(np.array(shares) - 0.5, 0.0), not_the_top], 1e-9)
