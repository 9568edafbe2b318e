r"""Self-checks for the exercise notebooks: ``selfcheck.check_rotation(rotation)`` below an answer.

A self-check runs the student's function on random inputs (seeded, so that running it again gives the
same verdict), compares the result with the book's own implementation, and on a mismatch says *what* is
wrong and gives a hint, never the expected numbers. It recognises the usual mistakes (sine and cosine
swapped, a clockwise turn, the wrong pair layout, positions off by one, a missing :math:`\sqrt d`, the base
misapplied, ...) by computing those mistakes too, so that the hint can name the one made.

Self-checks need nothing but numpy and ``posenc``, so they work in Colab and Binder. What kinds of answer
they accept and how close is close enough is the one rule of :mod:`posenc.answers`, which the hidden
tests apply too. They are a help for
students, not the grade: a patched self-check fools only the student who patched it, because the hidden
tests that nbgrader adds when grading use none of this module (see the instructor guide).

A failed check raises :class:`SelfCheckFailed`, which Jupyter shows as one line, without a traceback.
"""

from __future__ import annotations

import warnings
import zlib
from collections.abc import Callable

import numpy as np

from .alibi import alibi_slopes as _alibi_slopes
from .answers import TOL, plain
from .attention import attention as _attention
from .attention import permutation_matrix as _permutation_matrix
from .attention import softmax
from .geometry import rotation_2d
from .rotary import apply_rope, interleaved_to_half, rope_matrix
from .rotary_axes import axial_rope, mrope, partial_rope
from .scores import circulant, last_query_weights, offset_scores, toeplitz
from .sinusoidal import frequencies as _frequencies
from .sinusoidal import shift_matrix as _shift_matrix
from .sinusoidal import similarity_from_offset, sinusoidal_table


class SelfCheckFailed(AssertionError):
    """A self-check found a mistake. Jupyter shows the message alone, without a traceback."""

    def _render_traceback_(self) -> list[str]:
        return [f"\N{BALLOT X} {self}"]


def _fail(problem: str, hint: str):
    """Stop the check: what is wrong, then a hint (never the expected values)."""
    raise SelfCheckFailed(f"{problem} Hint: {hint}")


def _rng(name: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(name.encode()))


def _show(name: str, args: tuple) -> str:
    """How a call looks in a message: arrays by their shape, numbers short."""
    def one(a):
        if isinstance(a, np.ndarray):
            return f"<array of shape {a.shape}>"
        return f"{a:.4g}" if isinstance(a, float) else repr(a)

    return f"{name}(" + ", ".join(one(a) for a in args) + ")"


def _call(name: str, function: Callable, *args):
    """``function(*args)``, or a :class:`SelfCheckFailed` that says what went wrong when it raises."""
    if not callable(function):
        _fail(f"{name} is a {type(function).__name__}, not a function.", "define it with `def`.")
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return function(*(a.copy() if isinstance(a, np.ndarray) else a for a in args))
    except NotImplementedError:
        _fail(f"{name} is not written yet.", "replace the line `raise NotImplementedError()` with your code.")
    except Exception as error:  # the student's code may raise anything
        _fail(f"{_show(name, args)} raised {type(error).__name__}: {error}.",
              "call it on a small example in a scratch cell and read the error.")


def _plain(name: str, value, shape, args: tuple):
    """:func:`posenc.answers.plain`, failing as a self-check does: the same kinds pass as in the hidden tests."""
    try:
        return plain(name, value, shape)
    except AssertionError as refused:
        _fail(f"{_show(name, args)}: {str(refused).removeprefix(name + ' ')}.",
              "return True or False." if shape is None else
              "return a single number (float(...) of a one-element result)." if shape == () else
              f"return a numpy array (np.array(...)) of shape {shape}.")


def _array(name: str, value, shape: tuple, args: tuple) -> np.ndarray:
    """``value`` as a float array of ``shape``, or a failure that names the kind or shape problem."""
    value = np.asarray(_plain(name, value, shape, args))
    if np.iscomplexobj(value):
        if not _close(value.imag, np.zeros(shape)):
            _fail(f"{_show(name, args)} returned complex numbers.", "the answer is real: take the real part.")
        value = value.real
    value = value.astype(np.float64)
    if not np.all(np.isfinite(value)):
        _fail(f"{_show(name, args)} returned nan or inf.", "look for a division by zero or a log of 0.")
    return value


def _number(name: str, value, args: tuple) -> float:
    """``value`` as a float, or a failure: the function should return one number."""
    return float(_array(name, value, (), args))


def _close(a, b) -> bool:
    """The rule of :mod:`posenc.answers`, entry by entry: ``|a - b| <= TOL (1 + |b|)``."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= TOL * (1 + np.abs(b))))


def _judge(name: str, args: tuple, got, expected, mistakes: list[tuple], hint: str) -> None:
    """Pass if ``got`` matches ``expected``; else name the first known mistake it matches, or give ``hint``.

    ``mistakes`` holds ``(what the mistake gives, what is wrong, a hint)`` triples.
    """
    if _close(got, expected):
        return
    for value, problem, mistake_hint in mistakes:
        if _close(got, value):
            _fail(f"{_show(name, args)}: {problem}", mistake_hint)
    _fail(f"{_show(name, args)} does not give the right result.", hint)


def _passed(name: str, cases: int) -> None:
    print(f"\N{CHECK MARK} {name} passes its self-check on {cases} random cases. "
          "(Grading runs further, hidden tests.)")


# ---------------------------------------------------------------- chapter 1: attention sees a set


def check_attention(attention: Callable) -> None:
    """``attention(q, k, v)`` should be :math:`\\operatorname{softmax}(qk^\\top/\\sqrt d)\\,v`, softmax by rows."""
    rng = _rng("attention")
    shapes = [(3, 3, 4, 4), (2, 5, 8, 3), (4, 4, 16, 2), (1, 6, 2, 5)]
    for n_q, n_k, d, d_v in shapes:
        q, k, v = rng.standard_normal((n_q, d)), rng.standard_normal((n_k, d)), rng.standard_normal((n_k, d_v))
        args = (q, k, v)
        got = _array("attention", _call("attention", attention, *args), (n_q, d_v), args)
        scores = q @ k.T
        _judge("attention", args, got, _attention(q, k, v), [
            (softmax(scores) @ v, "the scores are not scaled.",
             "divide q kᵀ by the square root of d, the width of q and k."),
            (softmax(scores / d) @ v, "the scores are divided by d itself.", "the scale is the square root of d."),
            (softmax(scores / np.sqrt(d), axis=0) @ v, "the softmax runs down the columns.",
             "each query's weights form a row, and a row should sum to 1."),
            (softmax(scores / np.sqrt(d)).T @ v if n_q == n_k else np.nan, "the weight matrix is used transposed.",
             "row m of the output mixes the values with the weights of query m."),
        ], "compute the weights softmax(q kᵀ/√d) first, check that each row sums to 1, then mix the rows of v.")
    _passed("attention", len(shapes))


def check_permutation_matrix(permutation_matrix: Callable) -> None:
    """``permutation_matrix(order) @ x`` should equal ``x[order]``."""
    rng = _rng("permutation_matrix")
    sizes = [3, 5, 8, 2]
    for n in sizes:
        order = rng.permutation(n)
        args = (order,)
        got = _array("permutation_matrix", _call("permutation_matrix", permutation_matrix, order), (n, n), args)
        expected = _permutation_matrix(order)
        _judge("permutation_matrix", args, got, expected, [
            (expected.T, "this matrix undoes the permutation (it is the transpose of the one asked for).",
             "row i should pick row order[i] of x, so the 1 of row i sits in column order[i]."),
            (_permutation_matrix(np.roll(np.arange(n), 1)[order]) if n > 1 else np.nan,
             "the 1s sit one column to the left.", "positions in `order` start at 0."),
        ], "row i of P @ x should be row order[i] of x; try P @ np.arange(n) and compare it with order.")
    _passed("permutation_matrix", len(sizes))


# ---------------------------------------------------------------- chapter 2: absolute or relative


def check_add_positions(add_positions: Callable) -> None:
    """``add_positions(x, table)`` adds row ``m`` of the table to token ``m``; too long a sequence is a ValueError."""
    rng = _rng("add_positions")
    cases = [(4, 8, 6), (6, 4, 6), (1, 2, 3)]
    for n, d, rows in cases:
        x, table = rng.standard_normal((n, d)), rng.standard_normal((rows, d))
        args = (x, table)
        got = _array("add_positions", _call("add_positions", add_positions, *args), (n, d), args)
        _judge("add_positions", args, got, x + table[:n], [
            (x + table[1:n + 1] if rows > n else np.nan, "the positions are off by one.",
             "the first token is at position 0."),
            (x + table[n - 1::-1], "the table's rows are used in reverse order.", "token m takes row m."),
        ], "token m should receive row m of the table.")
    x, table = rng.standard_normal((7, 4)), rng.standard_normal((5, 4))
    call = "add_positions(<7 tokens>, <table of 5 rows>)"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            add_positions(x, table)
    except ValueError as error:
        if "5" not in str(error):
            _fail(f"{call} raised ValueError with the message {str(error)!r}.",
                  "say in the message how many positions the table has.")
    except NotImplementedError:
        _fail("add_positions is not written yet.", "replace the line `raise NotImplementedError()` with your code.")
    except Exception as error:  # the student's code may raise anything
        _fail(f"{call} raised {type(error).__name__}.", "raise ValueError, with a message that names the problem.")
    else:
        _fail(f"{call} returned a result.", "a table has nothing for positions it does not have: raise ValueError.")
    _passed("add_positions", len(cases) + 1)


def check_offset_counts(offset_counts: Callable) -> None:
    """``offset_counts(n)[k]`` is the number of query-key pairs with the key ``k`` positions back."""
    sizes = [1, 4, 9, 30]
    for n in sizes:
        args = (n,)
        got = _array("offset_counts", _call("offset_counts", offset_counts, n), (n,), args)
        k = np.arange(n)
        _judge("offset_counts", args, got, n - k, [
            (n - k - 1, "each count is one too small.", "offset 0 (each token with itself) occurs n times."),
            (2.0 * (n - k), "pairs are counted twice.", "a causal query only looks back."),
            (np.ones(n), "every offset is counted once, like an absolute position.",
             "count the queries that have a key k positions back."),
        ], "count, for each k, the queries m whose key m - k still lies in the sequence.")
    _passed("offset_counts", len(sizes))


def check_relative_scores(relative_scores: Callable) -> None:
    """``relative_scores(bias, n)[m, j] = bias[j - m + n - 1]``: a score for each offset ``j - m``."""
    rng = _rng("relative_scores")
    sizes = [2, 4, 7]
    for n in sizes:
        bias = rng.standard_normal(2 * n - 1)
        args = (bias, n)
        got = _array("relative_scores", _call("relative_scores", relative_scores, *args), (n, n), args)
        m, j = np.indices((n, n))
        _judge("relative_scores", args, got, bias[j - m + n - 1], [
            (bias[m - j + n - 1], "the offsets run the wrong way.",
             "entry [m, j] belongs to the offset j - m (key minus query)."),
            (bias[(j - m + n) % (2 * n - 1)], "the offsets are shifted by one.", "offset 0 sits at bias[n - 1]."),
        ], "entry [m, j] should be the bias for the offset j - m.")
    _passed("relative_scores", len(sizes))


# ---------------------------------------------------------------- chapter 3: a ladder of frequencies


def check_frequencies(frequencies: Callable) -> None:
    """``frequencies(d, base)`` is the ladder :math:`\\theta_j = \\text{base}^{-2j/d}`, ``j = 0..d/2-1``."""
    cases = [(8, 10000.0), (64, 10000.0), (6, 100.0), (128, 500000.0)]
    for d, base in cases:
        args = (d, base)
        got = _array("frequencies", _call("frequencies", frequencies, *args), (d // 2,), args)
        j = np.arange(d // 2)
        _judge("frequencies", args, got, _frequencies(d, base), [
            (base ** (-j / d), "the exponent lacks its factor 2.", "the last hand should turn almost 1/base."),
            (base ** (2 * j / d), "the exponent has the wrong sign.",
             "the hands should slow down, from 1 radian per position toward 1/base."),
            (base ** (-2 * (j + 1) / d), "j starts at 1.", "the first hand (j = 0) turns one radian per position."),
            (_frequencies(d, base) / (2 * np.pi), "these are turns per position.", "the ladder is in radians."),
        ], "theta_0 should be 1 and each next hand slower by the same factor, down to almost 1/base.")
    _passed("frequencies", len(cases))


def check_sinusoidal_table(sinusoidal_table_fn: Callable) -> None:
    """``sinusoidal_table(n, d, base)``: row ``p`` is ``(sin pθ_0, cos pθ_0, sin pθ_1, cos pθ_1, ...)``."""
    cases = [(5, 4, 10000.0), (12, 16, 10000.0), (7, 6, 100.0)]
    for n, d, base in cases:
        args = (n, d, base)
        got = _array("sinusoidal_table", _call("sinusoidal_table", sinusoidal_table_fn, *args), (n, d), args)
        expected = sinusoidal_table(n, d, base)
        angles = np.outer(np.arange(n), _frequencies(d, base))
        _judge("sinusoidal_table", args, got, expected, [
            (expected[:, np.arange(d) ^ 1], "sine and cosine are swapped.", "column 2j holds the sine."),
            (sinusoidal_table(n + 1, d, base)[1:], "the positions are off by one.", "the first row is position 0."),
            (np.concatenate([np.sin(angles), np.cos(angles)], axis=1),
             "the pairs are laid out as halves (all the sines, then all the cosines).", "interleave them."),
        ], "row p should hold sin(p·θ_j) in column 2j and cos(p·θ_j) in column 2j+1.")
    _passed("sinusoidal_table", len(cases))


def check_offset_similarity(offset_similarity: Callable) -> None:
    """``offset_similarity(k, d, base)``: the closed form of :math:`\\mathrm{PE}(p)\\cdot\\mathrm{PE}(p+k)`."""
    rng = _rng("offset_similarity")
    cases = [(int(rng.integers(-50, 50)), d, base) for d, base in [(8, 10000.0), (32, 10000.0), (10, 100.0)]]
    cases += [(0, 16, 10000.0)]
    for k, d, base in cases:
        args = (k, d, base)
        got = _number("offset_similarity", _call("offset_similarity", offset_similarity, *args), args)
        theta = _frequencies(d, base)
        _judge("offset_similarity", args, got, similarity_from_offset(k, d, base)[0], [
            (np.sin(k * theta).sum(), "that is a sum of sines.", "sin a sin b + cos a cos b is a cosine."),
            (np.cos(k * base ** (-np.arange(d) / d)).sum(), "it sums over d frequencies.",
             "there is one frequency per pair: d/2 of them."),
            (np.cos(k * theta).mean(), "that is a mean.", "the dot product adds the pairs up."),
        ], "it should equal PE(p)·PE(p+k) for every p; compare it with two rows of a sinusoidal table.")
    _passed("offset_similarity", len(cases))


def check_shift_matrix(shift_matrix: Callable) -> None:
    """``shift_matrix(k, d, base) @ PE(p) == PE(p + k)`` for every ``p``."""
    rng = _rng("shift_matrix")
    cases = [(int(rng.integers(-30, 30)), d, base) for d, base in [(4, 10000.0), (8, 100.0), (16, 10000.0)]]
    for k, d, base in cases:
        args = (k, d, base)
        got = _array("shift_matrix", _call("shift_matrix", shift_matrix, *args), (d, d), args)
        expected = _shift_matrix(k, d, base)
        half = interleaved_to_half(d)
        _judge("shift_matrix", args, got, expected, [
            (expected.T, "this matrix moves positions backwards (PE(p) to PE(p - k)).",
             "check the signs of the sines."),
            (_shift_matrix(k + 1, d, base), "it shifts by k + 1 positions.", "the angle of block j is k·θ_j."),
            (expected[np.ix_(half, half)], "its blocks act on dimensions (j, j + d/2).",
             "the pairs of the table are (2j, 2j+1)."),
        ], "each 2x2 block should carry (sin a, cos a) to (sin(a+b), cos(a+b)) with b = k·θ_j.")
    _passed("shift_matrix", len(cases))


# ---------------------------------------------------------------- chapter 4: rotation, not addition


def check_rotation(rotation: Callable) -> None:
    """``rotation(angle)`` is the counter-clockwise rotation of the plane by ``angle`` radians."""
    rng = _rng("rotation")
    angles = [float(a) for a in rng.uniform(-4, 4, 6)]
    for angle in angles:
        args = (angle,)
        got = _array("rotation", _call("rotation", rotation, angle), (2, 2), args)
        expected = rotation_2d(angle)
        _judge("rotation", args, got, expected, [
            (expected.T, "it turns clockwise.", "a small positive angle should carry (1, 0) toward (0, 1)."),
            (np.array([[np.sin(angle), -np.cos(angle)], [np.cos(angle), np.sin(angle)]]),
             "sine and cosine are swapped.", "rotation(0) should leave every vector where it is."),
            (rotation_2d(np.deg2rad(angle)), "it reads the angle in degrees.", "angles here are in radians."),
        ], "rotation(0) should be the identity, and the columns the images of (1, 0) and (0, 1).")
    _passed("rotation", len(angles))


def check_rope_score(rope_score: Callable) -> None:
    """``rope_score(q, k, m, n, theta)``: :math:`(R_m q)\\cdot(R_n k)/\\sqrt 2` for vectors of the plane."""
    rng = _rng("rope_score")
    cases = [(rng.standard_normal(2), rng.standard_normal(2), int(rng.integers(0, 40)), int(rng.integers(0, 40)),
              float(rng.uniform(0.05, 1.5))) for _ in range(6)]
    for q, k, m, n, theta in cases:
        args = (q, k, m, n, theta)
        got = _number("rope_score", _call("rope_score", rope_score, *args), args)
        rq, rk = rotation_2d(m * theta) @ q, rotation_2d(n * theta) @ k
        _judge("rope_score", args, got, rq @ rk / np.sqrt(2), [
            (rq @ rk, "the dot product is not scaled.", "divide by √d, and d = 2 here."),
            (q @ k / np.sqrt(2), "the positions have no effect.", "turn q by m·θ and k by n·θ."),
            (rq @ (rotation_2d(m * theta) @ k) / np.sqrt(2), "both vectors are turned by m·θ.",
             "the key turns by its own position, n·θ."),
            (rq @ (rotation_2d(-n * theta) @ k) / np.sqrt(2), "the key is turned backwards (by -n·θ).",
             "both vectors turn counter-clockwise."),
        ], "turn q by m·θ and k by n·θ, take the dot product, divide by √2.")
    _passed("rope_score", len(cases))


# ---------------------------------------------------------------- chapter 5: rotations preserve the norm


def check_rotate(rotate: Callable) -> None:
    """``rotate(q, m, theta)`` turns the plane vector ``q`` counter-clockwise by ``m * theta``."""
    rng = _rng("rotate")
    cases = [(rng.standard_normal(2), int(rng.integers(-20, 20)), float(rng.uniform(0.05, 2.0))) for _ in range(6)]
    for q, m, theta in cases:
        args = (q, m, theta)
        got = _array("rotate", _call("rotate", rotate, *args), (2,), args)
        angle = m * theta
        _judge("rotate", args, got, rotation_2d(angle) @ q, [
            (rotation_2d(-angle) @ q, "it turns clockwise.", "a positive angle should carry (1, 0) toward (0, 1)."),
            (rotation_2d(theta) @ q if m != 1 else np.nan, "the angle ignores the position.",
             "turn by m·θ, not θ."),
            (np.array([[np.sin(angle), -np.cos(angle)], [np.cos(angle), np.sin(angle)]]) @ q,
             "sine and cosine are swapped.", "at angle 0 nothing should move."),
        ], "the result is (x cos a - y sin a, x sin a + y cos a) with a = m·θ.")
    _passed("rotate", len(cases))


def check_added_norms(added_norms: Callable) -> None:
    """``added_norms(q, n_positions)[m]`` is :math:`\\|q + \\mathrm{PE}(m)\\|` for ``m = 0..n_positions-1``."""
    rng = _rng("added_norms")
    cases = [(rng.standard_normal(d), n) for d, n in [(4, 6), (16, 10), (8, 1)]]
    for q, n in cases:
        args = (q, n)
        got = _array("added_norms", _call("added_norms", added_norms, *args), (n,), args)
        table = sinusoidal_table(n + 1, q.shape[0])
        _judge("added_norms", args, got, np.linalg.norm(q + table[:n], axis=1), [
            (np.linalg.norm(q + table[1:], axis=1), "the positions are off by one.", "the first is position 0."),
            (np.linalg.norm(q) + np.linalg.norm(table[:n], axis=1), "that adds the two lengths.",
             "the length of a sum depends on the angle between the vectors: add first, then measure."),
            (np.sum((q + table[:n]) ** 2, axis=1), "these are squared lengths.", "take the square root."),
        ], "add PE(m) to q, then take the length of the sum, for each m.")
    _passed("added_norms", len(cases))


# ---------------------------------------------------------------- chapter 6: the score matrix is Toeplitz

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
    rng = _rng(name)
    sizes = [3, 5, 8]
    for n in sizes:
        for kind, matrix in _structured(rng, n).items():
            said = _plain(name, _call(name, predicate, matrix), None, (matrix,))
            if bool(said) != truth[kind]:
                _fail(f"{_show(name, (matrix,))} said {bool(said)} for a {n}x{n} {kind} matrix.", hints[kind])
    _passed(name, len(truth) * len(sizes))


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
    rng = _rng("circular_convolution_matrix")
    sizes = [3, 6, 9]
    for n in sizes:
        w = rng.standard_normal(n)
        args = (w,)
        got = _array("circular_convolution_matrix",
                     _call("circular_convolution_matrix", circular_convolution_matrix, w), (n, n), args)
        expected = circulant(w).T
        _judge("circular_convolution_matrix", args, got, expected, [
            (np.tril(expected), "the sum does not wrap around.", "the index i - j is taken modulo n."),
            (expected.T, "that is a correlation (x taken at i + j).", "a convolution takes x at i - j."),
        ], "row i should produce sum_j w[j] x[(i - j) mod n]; compare M @ x with "
           "np.fft.ifft(np.fft.fft(w) * np.fft.fft(x)).real.")
    _passed("circular_convolution_matrix", len(sizes))


# ---------------------------------------------------------------- chapter 7: a clock with many hands


def check_hand_periods(hand_periods: Callable) -> None:
    """``hand_periods(d, base)``: positions per full turn of each hand, :math:`2\\pi/\\theta_j`."""
    cases = [(8, 10000.0), (64, 10000.0), (16, 500000.0)]
    for d, base in cases:
        args = (d, base)
        got = _array("hand_periods", _call("hand_periods", hand_periods, *args), (d // 2,), args)
        theta = _frequencies(d, base)
        _judge("hand_periods", args, got, 2 * np.pi / theta, [
            (theta, "these are the frequencies θ_j.", "a period is the number of positions one full turn takes."),
            (1 / theta, "a full turn is taken as 1 radian.", "a full turn is 2π radians."),
            (2 * np.pi / base ** (-np.arange(d // 2) / d), "the ladder's exponent lacks its factor 2.",
             "θ_j = base ** (-2j/d)."),
        ], "hand j turns θ_j radians per position; how many positions make a full turn?")
    _passed("hand_periods", len(cases))


def _alias(theta: float, k: int) -> float:
    turned = np.mod(k * theta, 2 * np.pi)
    return float(min(turned, 2 * np.pi - turned))


def check_alias_distance(alias_distance: Callable) -> None:
    """``alias_distance(theta, k)``: angle between positions ``p`` and ``p + k`` on one hand, the short way round."""
    rng = _rng("alias_distance")
    cases = [(1.0, 13), (1.0, 6), (0.1, 5)]
    cases += [(float(rng.uniform(0.05, 3)), int(rng.integers(1, 60))) for _ in range(5)]
    for theta, k in cases:
        args = (theta, k)
        got = _number("alias_distance", _call("alias_distance", alias_distance, *args), args)
        turned = np.mod(k * theta, 2 * np.pi)
        _judge("alias_distance", args, got, _alias(theta, k), [
            (turned, "the angle is not measured the short way round.", "the distance is at most π."),
            (k * theta, "the angle is not reduced modulo a full turn.", "angles 2π apart are the same place."),
        ], "reduce k·θ modulo 2π, then take the shorter of the two ways round the circle.")
    _passed("alias_distance", len(cases))


def check_closest_alias(closest_alias: Callable) -> None:
    """``closest_alias(theta, n_positions)``: the offset ``k`` in ``1..n-1`` whose positions land closest."""
    cases = [(1.0, 16), (1.0, 6), (1.0, 7), (0.5, 30), (2.0, 10)]
    for theta, n in cases:
        args = (theta, n)
        got = _number("closest_alias", _call("closest_alias", closest_alias, *args), args)
        best = 1 + int(np.argmin([_alias(theta, k) for k in range(1, n)]))
        if got == best:
            continue
        call = _show("closest_alias", args)
        if got == 1:
            _fail(f"{call} returned 1.", "neighbours are not always closest on a fast hand; measure the angle "
                                         "modulo a full turn.")
        if got < 1 or got >= n:
            _fail(f"{call} returned {got:g}, outside the offsets 1 to n_positions - 1.",
                  "two positions among 0..n-1 are at most n - 1 apart.")
        _fail(f"{call} does not give the closest offset.", "compare the alias distance of every offset 1..n-1.")
    _passed("closest_alias", len(cases))


def check_slowest_hand_span(slowest_hand_span: Callable) -> None:
    """``slowest_hand_span(d, base)``: how many positions ``0, 1, ...`` stay within one turn of the slowest hand."""
    cases = [(64, 10000.0), (8, 10000.0), (128, 500000.0), (4, 100.0)]
    for d, base in cases:
        args = (d, base)
        got = _number("slowest_hand_span", _call("slowest_hand_span", slowest_hand_span, *args), args)
        theta = _frequencies(d, base)
        if got == np.ceil(2 * np.pi / theta[-1]):
            continue
        call = _show("slowest_hand_span", args)
        if got == np.ceil(2 * np.pi / theta[-1]) - 1:
            _fail(f"{call} is one short.", "count position 0 too.")
        if got == np.ceil(2 * np.pi / theta[0]):
            _fail(f"{call} uses the fastest hand.", "the slowest hand is the last one of the ladder.")
        _fail(f"{call} does not give the right count.",
              "count the positions m = 0, 1, ... whose angle m·θ on the last hand is still below a full turn.")
    _passed("slowest_hand_span", len(cases))


def check_clock_shift(clock_shift: Callable) -> None:
    """``clock_shift(k, d, base)`` is :math:`\\Theta_k`: every pair ``(2j, 2j+1)`` turned by ``k θ_j``."""
    rng = _rng("clock_shift")
    cases = [(int(rng.integers(-40, 40)), d, base) for d, base in [(4, 10000.0), (8, 100.0), (16, 10000.0)]]
    for k, d, base in cases:
        args = (k, d, base)
        got = _array("clock_shift", _call("clock_shift", clock_shift, *args), (d, d), args)
        expected = rope_matrix(k, d, base)
        half = interleaved_to_half(d)
        _judge("clock_shift", args, got, expected, [
            (expected.T, "the hands turn clockwise.", "each 2x2 block should turn (1, 0) toward (0, 1)."),
            (expected[np.ix_(half, half)], "its pairs are the dimensions (j, j + d/2).",
             "the clock's pairs are (2j, 2j+1)."),
            (rope_matrix(k, d, base ** 0.5), "the ladder's exponent lacks its factor 2.", "θ_j = base ** (-2j/d)."),
        ], "block j should be the rotation by k·θ_j on dimensions 2j and 2j+1.")
    _passed("clock_shift", len(cases))


# ---------------------------------------------------------------- chapter 8: serving RoPE


def _check_rope(name: str, function: Callable, layout: str) -> None:
    rng = _rng(name)
    other = "half" if layout == "interleaved" else "interleaved"
    pairs = "(2j, 2j+1)" if layout == "interleaved" else "(j, j + d/2)"
    cases = [(5, 4, 10000.0, np.arange(5)), (6, 8, 100.0, 17 + np.arange(6)),
             (3, 16, 10000.0, np.array([2, 9, 40]))]
    for seq, d, base, positions in cases:
        x = rng.standard_normal((seq, d))
        args = (x, positions, base)
        got = _array(name, _call(name, function, *args), (seq, d), args)

        def rope(p=positions, b=base, how=layout, x=x):
            return apply_rope(x, p, base=b, layout=how)

        _judge(name, args, got, rope(), [
            (rope(how=other), f"it pairs the dimensions the {other} way.", f"pair j is dimensions {pairs}."),
            (rope(p=-positions), "it turns clockwise.", "check the signs of the sines."),
            (rope(p=positions + 1), "the positions are off by one.", "use the positions exactly as given."),
            (rope(p=None) if positions[0] else np.nan, "it ignores `positions` and numbers the rows 0, 1, 2, ...",
             "with a KV cache the new rows do not start at position 0."),
            (rope(b=base ** 0.5), "the ladder's exponent lacks its factor 2.", "θ_j = base ** (-2j/d)."),
        ], f"pair j of row i, dimensions {pairs}, should turn by positions[i]·θ_j.")
    _passed(name, len(cases))


def check_apply_rope_interleaved(apply_rope_interleaved: Callable) -> None:
    """``apply_rope_interleaved(x, positions, base)``: RoPE with pairs ``(2j, 2j+1)``."""
    _check_rope("apply_rope_interleaved", apply_rope_interleaved, "interleaved")


def check_apply_rope_half(apply_rope_half: Callable) -> None:
    """``apply_rope_half(x, positions, base)``: RoPE with pairs ``(j, j + d/2)``."""
    _check_rope("apply_rope_half", apply_rope_half, "half")


# ---------------------------------------------------------------- chapter 9: stretching RoPE


def check_interpolated_positions(interpolated_positions: Callable) -> None:
    """``interpolated_positions(positions, trained_length, target_length)``: positions squeezed by ``L/L'``."""
    rng = _rng("interpolated_positions")
    cases = [(np.arange(8), 4, 8), (rng.integers(0, 8192, 5), 2048, 8192), (np.arange(3), 1000, 3000)]
    for positions, trained, target in cases:
        args = (positions, trained, target)
        got = _array("interpolated_positions", _call("interpolated_positions", interpolated_positions, *args),
                     positions.shape, args)
        _judge("interpolated_positions", args, got, positions * trained / target, [
            (positions * target / trained, "the ratio is upside down.",
             "the positions should shrink into the trained range."),
            (positions * trained // target, "integer division drops the fractions.", "positions may be fractional."),
        ], "the last target position should land where the last trained position was.")
    _passed("interpolated_positions", len(cases))


def check_ntk_base(ntk_base: Callable) -> None:
    """``ntk_base(base, scale, d)``: the base whose slowest hand turns ``scale`` times slower."""
    cases = [(10000.0, 4.0, 64), (10000.0, 2.0, 128), (500000.0, 8.0, 32)]
    for base, scale, d in cases:
        args = (base, scale, d)
        got = _number("ntk_base", _call("ntk_base", ntk_base, *args), args)
        _judge("ntk_base", args, got, base * scale ** (d / (d - 2)), [
            (base * scale, "multiplying the base by the scale slows the slowest hand by less than the scale.",
             "the slowest hand's frequency is base ** (-(d - 2)/d), not 1/base."),
            (base * scale ** ((d - 2) / d), "the exponent is upside down.", "solve for the new base once more."),
        ], "solve new_base ** (-(d - 2) / d) == base ** (-(d - 2) / d) / scale for new_base.")
    _passed("ntk_base", len(cases))


def check_ntk_frequencies(ntk_frequencies: Callable) -> None:
    """``ntk_frequencies(d, base, scale)``: the NTK-aware ladder :math:`\\theta_j\\, s^{-2j/(d-2)}`."""
    rng = _rng("ntk_frequencies")
    cases = [(4, 10000.0, 2.0), (8, 100.0, 4.0), (16, 10000.0, float(rng.uniform(1.5, 8.0)))]
    for d, base, scale in cases:
        args = (d, base, scale)
        got = _array("ntk_frequencies", _call("ntk_frequencies", ntk_frequencies, *args), (d // 2,), args)
        theta, tilt = _frequencies(d, base), np.arange(d // 2) / (d // 2 - 1)
        _judge("ntk_frequencies", args, got, theta * scale ** -tilt, [
            (theta / scale, "every hand is slowed by the scale: that is position interpolation.",
             "with the larger base the fastest hand keeps θ_0 = 1."),
            (_frequencies(d, base * scale), "the base is multiplied by the scale itself.",
             "the new base is base * scale ** (d / (d - 2)), as in exercise 2."),
            (theta * scale ** (tilt - 1), "the fastest hand is slowed and the slowest kept: the tilt is reversed.",
             "hand 0 keeps its frequency; the last hand is slowed by exactly the scale."),
        ], "hand j should turn base ** (-2j/d) * scale ** (-2j/(d-2)) radians per position.")
    _passed("ntk_frequencies", len(cases))


# ---------------------------------------------------------------- chapter 10: the family


def check_alibi_slopes(alibi_slopes: Callable) -> None:
    """``alibi_slopes(n_heads)``: ALiBi's head slopes, for powers of two and, by the paper's rule, the rest."""
    cases = [8, 16, 1, 2, 12, 6, 24, 5]
    for n in cases:
        args = (n,)
        got = _array("alibi_slopes", _call("alibi_slopes", alibi_slopes, n), (n,), args)
        expected = _alibi_slopes(n)
        closest = 2 ** int(np.log2(n))
        geometric = 2.0 ** (-8.0 * np.arange(1, n + 1) / n)
        _judge("alibi_slopes", args, got, expected, [
            (2.0 ** (-8.0 * np.arange(n) / n), "the first head's slope is 1: k starts at 0.",
             "head k = 1, ..., n gets 2 ** (-8k/n), so every slope is below 1."),
            (geometric, "the plain geometric sequence is used for a head count that is not a power of two.",
             "take the slopes of the largest power of two c below n, then add slopes from 2c heads."),
            (np.r_[_alibi_slopes(closest), _alibi_slopes(2 * closest)[: n - closest]],
             "the extra heads take the first slopes of 2c heads, repeating some of the others.",
             "the extra heads take every other slope of 2c heads, those that fall between the first c."),
            (expected[::-1], "the slopes run the wrong way.", "the first head has the steepest slope."),
        ], "for n a power of two, head k gets 2 ** (-8k/n); otherwise the slopes of the largest power of two "
           "c below n, then every other slope of 2c heads.")
    _passed("alibi_slopes", len(cases))


def _halves(x: np.ndarray, row: float, col: float, base: float, layout: str = "interleaved") -> np.ndarray:
    """RoPE of width d/2 on each half of ``x``: the first half at ``row``, the second at ``col``."""
    half = x.shape[-1] // 2
    return np.r_[apply_rope(x[None, :half], [row], base=base, layout=layout)[0],
                 apply_rope(x[None, half:], [col], base=base, layout=layout)[0]]


def check_axial_rope_vector(axial_rope_vector: Callable) -> None:
    """``axial_rope_vector(x, row, col, base)``: 2-D RoPE of one patch, first half by the row, second by the column."""
    rng = _rng("axial_rope_vector")
    cases = [(4, 3, 5, 10000.0), (8, -2, 7, 100.0), (16, 11, 4, 10000.0), (32, 29, 17, 10000.0)]
    for d, row, col, base in cases:
        x = rng.standard_normal(d)
        args = (x, row, col, base)
        got = _array("axial_rope_vector", _call("axial_rope_vector", axial_rope_vector, *args), (d,), args)
        _judge("axial_rope_vector", args, got, axial_rope(x[None], [row], [col], base=base)[0], [
            (_halves(x, col, row, base), "the row and the column are swapped.",
             "the first half of x turns by the row, the second by the column."),
            (_halves(x, -row, -col, base), "it turns clockwise.", "check the signs of the sines."),
            (_halves(x, row, col, base ** 0.5), "each half uses the ladder of the whole head.",
             "each half is a RoPE of width d/2: θ_j = base ** (-2j/(d/2))."),
            (mrope(x[None], [[row], [col], [0]], (d // 4, d // 4, 0), base=base)[0],
             "one ladder runs over the whole head: the second half gets its slow end.",
             "each half has its own ladder of width d/2, from θ_0 = 1 down."),
            (_halves(x, row, row, base), "both halves turn by the row.", "the second half turns by the column."),
            (apply_rope(x[None], [row], base=base)[0], "the whole vector turns by the row, as in 1-D RoPE.",
             "split x into two halves, one for each axis."),
            (_halves(x, row, col, base, "half"), "inside each half it pairs the dimensions (j, j + d/4).",
             "pairs are neighbours (2j, 2j+1) in each half."),
        ], "split x into two halves of width d/2; give each half RoPE (pairs (2j, 2j+1), θ_j = base ** (-2j/(d/2))), "
           "the first by the row, the second by the column.")
    _passed("axial_rope_vector", len(cases))


def _partial_score(q: np.ndarray, k: np.ndarray, m: float, n: float, turned: slice, base: float) -> float:
    """``q . k`` after RoPE (ladder base ``base`` over the slice's width) of the dimensions ``turned`` only."""
    q_t, k_t = q.copy(), k.copy()
    q_t[turned], k_t[turned] = (apply_rope(v[None, turned], [p], base=base)[0] for v, p in ((q, m), (k, n)))
    return float(q_t @ k_t)


def check_partial_rope_score(partial_rope_score: Callable) -> None:
    """``partial_rope_score(q, k, m, n, rotary_fraction, base)``: the dot product of ``q`` at ``m`` and ``k`` at
    ``n`` when only the first ``r = int(d * rotary_fraction)`` dimensions are rotated."""
    rng = _rng("partial_rope_score")
    cases = [(8, 0.25, 10000.0), (16, 0.5, 100.0), (32, 0.75, 10000.0), (12, 0.5, 10000.0)]
    for d, fraction, base in cases:
        q, k = rng.standard_normal((2, d))
        m, n = (int(p) for p in rng.choice(200, 2, replace=False))
        args = (q, k, m, n, fraction, base)
        got = _number("partial_rope_score", _call("partial_rope_score", partial_rope_score, *args), args)
        r = int(d * fraction)
        q_m, k_n = (partial_rope(v[None], [p], rotary_fraction=fraction, base=base)[0] for v, p in ((q, m), (k, n)))
        expected = float(q_m @ k_n)
        _judge("partial_rope_score", args, got, expected, [
            (_partial_score(q, k, m, n, slice(None, r), base ** (r / d)),
             "the rotated dimensions use the whole head's ladder.",
             "the ladder is built over the r rotated dimensions: θ_j = base ** (-2j/r)."),
            (_partial_score(q, k, m, n, slice(d - r, None), base), "it rotates the last r dimensions.",
             "the first r dimensions turn."),
            (expected - float(q[r:] @ k[r:]), "the dimensions that pass through are left out of the score.",
             "they still add their plain dot product."),
            (_partial_score(q, k, m, n, slice(None), base), "every dimension is rotated.",
             "only the first r = int(d * rotary_fraction) turn."),
            (expected / np.sqrt(d), "it divides by sqrt(d).", "return the plain dot product."),
            (_partial_score(q, k, n, m, slice(None, r), base), "the query and key positions are swapped.",
             "q sits at m and k at n."),
        ], "rotate q[:r] by m and k[:r] by n (RoPE of width r), then add the dot product of the rest.")
    _passed("partial_rope_score", len(cases))


# ---------------------------------------------------------------- chapter 8: find the bug in a half-layout kernel


def _half_pairs_with_interleaved_angles(x: np.ndarray, positions, base: float) -> np.ndarray:
    """The exercise's bug: ``rotate_half`` pairs (j, j + d/2), the angles are laid out for pairs (2j, 2j+1)."""
    d = x.shape[-1]
    angles = np.outer(positions, np.repeat(_frequencies(d, base), 2))
    rotated = np.concatenate([-x[:, d // 2:], x[:, : d // 2]], axis=1)
    return x * np.cos(angles) + rotated * np.sin(angles)


def check_rope_half_fixed(rope_half_fixed: Callable) -> None:
    """``rope_half_fixed(x, positions, base)``: the buggy kernel of the exercise, fixed; RoPE with pairs
    ``(j, j + d/2)``. First the bug itself is recognised, then every mistake of :func:`check_apply_rope_half`."""
    rng = _rng("rope_half_fixed")
    for seq, d, base, positions in [(4, 8, 10000.0, 3 + np.arange(4)), (3, 4, 100.0, np.array([1.0, 5.0, 6.5]))]:
        x = rng.standard_normal((seq, d))
        args = (x, positions, base)
        got = _array("rope_half_fixed", _call("rope_half_fixed", rope_half_fixed, *args), (seq, d), args)
        if _close(got, _half_pairs_with_interleaved_angles(x, positions, base)):
            _fail(f"{_show('rope_half_fixed', args)}: the bug is still there: dimension j and dimension j + d/2 "
                  "turn by different angles.",
                  "rotate_half pairs j with j + d/2, so the table of angles must repeat the d/2 angles as two halves.")
    _check_rope("rope_half_fixed", rope_half_fixed, "half")


# ---------------------------------------------------------------- chapter 6, weights: a head that looks back

LOOKBACK_CONTEXT, LOOKBACK_OFFSET, LOOKBACK_WEIGHT = 32, -3, 0.9


def check_design_lookback(design_lookback: Callable) -> None:
    """``design_lookback(d, base)`` returns ``(q, k)``, each of shape ``(d,)``, for which the query at the last
    position of a causal context of 32 tokens puts at least 90% of its softmax weight on the key three
    positions back (offset :math:`n - m = -3`)."""
    name, cases = "design_lookback", [(64, 10000.0), (16, 500000.0), (8, 100.0), (8, 1000000.0)]
    for d, base in cases:
        args = (d, base)
        answer = _call(name, design_lookback, d, base)
        if type(answer) not in (tuple, list) or len(answer) != 2:
            _fail(f"{_show(name, args)} returned a {type(answer).__name__}, expected a pair (q, k).",
                  "end the function with `return q, k`.")
        q, k = (_array(name, vector, (d,), args) for vector in answer)
        weights = last_query_weights(q, k, LOOKBACK_CONTEXT, base=base)
        share = weights[LOOKBACK_OFFSET - 1]  # keys 0..N-1 sit at offsets 1-N..0
        if share >= LOOKBACK_WEIGHT:
            continue
        reach = np.arange(1 - LOOKBACK_CONTEXT, LOOKBACK_CONTEXT)
        peak = int(reach[np.argmax(offset_scores(q, k, reach, base=base))])
        seen = int(np.argmax(weights)) + 1 - LOOKBACK_CONTEXT
        if peak == -LOOKBACK_OFFSET:
            _fail(f"{_show(name, args)}: the scores peak at offset +3, a token three positions ahead, which a "
                  "causal query never sees.", "turn the key forward by three positions (k = Θ₃ q), not backward.")
        if seen != LOOKBACK_OFFSET:
            _fail(f"{_show(name, args)}: the weights peak at offset {seen}, not at -3.",
                  "make pair j of k the pair j of q turned counter-clockwise by 3 θ_j, with θ_j = base^(-2j/d).")
        _fail(f"{_show(name, args)}: the weights peak at offset -3 but put only {share:.0%} there.",
              "lengthen q and k: the gaps between scores grow with |q| |k|, and the softmax sharpens with them.")
    _passed(name, len(cases))
