"""The self-checks of the exercises of chapter 6, *The score matrix is Toeplitz*: one ``check_<answer>`` per answer."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from posenc.scores import circulant, last_query_weights, offset_scores, toeplitz

from .checking import as_array, call_text, fail, judge, passed, plain_answer, run_answer, seeded_rng

ROUND_OFF = "its entries agree only up to round-off (1e-13): compare differences with `tol`, not with ==."


CHECK_ALL = "check every entry, down to the last row."


def _structured(rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """Random matrices of each kind, for the Toeplitz and circulant checks."""
    row = rng.standard_normal(n)
    column = np.concatenate([row[:1], rng.standard_normal(n - 1)])
    near = toeplitz(column, row)
    near[n - 1, n - 1] += 0.5
    noise = 1e-13 * rng.standard_normal((n, n))
    return {"circulant": circulant(row), "Toeplitz": toeplitz(column, row), "general": rng.standard_normal((n, n)),
            "almost Toeplitz (one corner entry off)": near, "circulant up to round-off": circulant(row) + noise,
            "Toeplitz up to round-off": toeplitz(column, row) + noise}


def _check_predicate(name: str, predicate: Callable, truth: dict[str, bool], hints: dict[str, str]) -> None:
    rng = seeded_rng(name)
    sizes = [3, 5, 8]
    for n in sizes:
        for kind, matrix in _structured(rng, n).items():
            said = plain_answer(name, run_answer(name, predicate, matrix), None, (matrix,))
            if bool(said) != truth[kind]:
                fail(f"{call_text(name, (matrix,))} said {bool(said)} for a {n}x{n} {kind} matrix.", hints[kind])
    passed(name, len(truth) * len(sizes))


def check_is_toeplitz(is_toeplitz: Callable) -> None:
    """``is_toeplitz(s)``: whether every diagonal of the square matrix ``s`` is constant."""
    _check_predicate("is_toeplitz", is_toeplitz,
                     {"circulant": True, "Toeplitz": True, "general": False,
                      "almost Toeplitz (one corner entry off)": False, "circulant up to round-off": True,
                      "Toeplitz up to round-off": True},
                     {"circulant": "every circulant matrix is Toeplitz.",
                      "Toeplitz": "its diagonals are constant but do not wrap around; do not ask for wrapping.",
                      "general": "compare each entry with its neighbour one step down and to the right.",
                      "almost Toeplitz (one corner entry off)": CHECK_ALL,
                      "circulant up to round-off": ROUND_OFF, "Toeplitz up to round-off": ROUND_OFF})


def check_is_circulant(is_circulant: Callable) -> None:
    """``is_circulant(s)``: whether each row of ``s`` is the row above shifted right by one, wrapping around."""
    _check_predicate("is_circulant", is_circulant,
                     {"circulant": True, "Toeplitz": False, "general": False,
                      "almost Toeplitz (one corner entry off)": False, "circulant up to round-off": True,
                      "Toeplitz up to round-off": False},
                     {"circulant": "shift a row right by one, the last entry wrapping to the front: it should "
                                   "match the row below.",
                      "Toeplitz": "constant diagonals are not enough: they must also wrap around.",
                      "general": "compare each row with the row above, shifted.",
                      "almost Toeplitz (one corner entry off)": CHECK_ALL, "circulant up to round-off": ROUND_OFF,
                      "Toeplitz up to round-off": "constant diagonals are not enough: they must also wrap around."})


def check_circular_convolution_matrix(circular_convolution_matrix: Callable) -> None:
    """``circular_convolution_matrix(w) @ x`` is the circular convolution :math:`\\sum_j w_j x_{(i-j) \\bmod n}`."""
    rng = seeded_rng("circular_convolution_matrix")
    sizes = [3, 6, 9]
    for n in sizes:
        w = rng.standard_normal(n)
        args = (w,)
        got = as_array("circular_convolution_matrix",
                       run_answer("circular_convolution_matrix", circular_convolution_matrix, w), (n, n), args)
        expected = circulant(w).T
        judge("circular_convolution_matrix", args, got, expected, [
            (np.tril(expected), "the sum does not wrap around.", "the index i - j is taken modulo n."),
            (expected.T, "that is a correlation (x taken at i + j).", "a convolution takes x at i - j."),
        ], "row i should produce sum_j w[j] x[(i - j) mod n]; compare M @ x with "
           "np.fft.ifft(np.fft.fft(w) * np.fft.fft(x)).real.")
    passed("circular_convolution_matrix", len(sizes))


LOOKBACK_CONTEXT, LOOKBACK_OFFSET, LOOKBACK_WEIGHT = 32, -3, 0.9


def check_design_lookback(design_lookback: Callable) -> None:
    """``design_lookback(d, base)`` returns ``(q, k)``, each of shape ``(d,)``, for which the query at the last
    position of a causal context of 32 tokens puts at least 90% of its softmax weight on the key three
    positions back (offset :math:`n - m = -3`)."""
    name, cases = "design_lookback", [(64, 10000.0), (16, 500000.0), (8, 100.0), (8, 1000000.0)]
    for d, base in cases:
        args = (d, base)
        answer = run_answer(name, design_lookback, d, base)
        if type(answer) not in (tuple, list) or len(answer) != 2:
            fail(f"{call_text(name, args)} returned a {type(answer).__name__}, expected a pair (q, k).",
                  "end the function with `return q, k`.")
        q, k = (as_array(name, vector, (d,), args) for vector in answer)
        weights = last_query_weights(q, k, LOOKBACK_CONTEXT, base=base)
        share = weights[LOOKBACK_OFFSET - 1]  # keys 0..N-1 sit at offsets 1-N..0
        if share >= LOOKBACK_WEIGHT:
            continue
        reach = np.arange(1 - LOOKBACK_CONTEXT, LOOKBACK_CONTEXT)
        peak = int(reach[np.argmax(offset_scores(q, k, reach, base=base))])
        seen = int(np.argmax(weights)) + 1 - LOOKBACK_CONTEXT
        if peak == -LOOKBACK_OFFSET:
            fail(f"{call_text(name, args)}: the scores peak at offset +3, a token three positions ahead, which a "
                  "causal query never sees.", "turn the key forward by three positions (k = Θ₃ q), not backward.")
        if seen != LOOKBACK_OFFSET:
            fail(f"{call_text(name, args)}: the weights peak at offset {seen}, not at -3.",
                  "make pair j of k the pair j of q turned counter-clockwise by 3 θ_j, with θ_j = base^(-2j/d).")
        fail(f"{call_text(name, args)}: the weights peak at offset -3 but put only {share:.0%} there.",
              "lengthen q and k: the gaps between scores grow with |q| |k|, and the softmax sharpens with them.")
    passed(name, len(cases))
