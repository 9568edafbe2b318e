"""The validation of every public function's arguments in posenc, with one rule for which error a bad input gets.

- ``TypeError``: the argument is the wrong *kind* of thing. Its Python type, or for an array its dtype,
  is not one the function accepts: a string or ``None`` where a number is expected, ``True`` or ``2.5``
  where an integer count is expected, a complex or boolean array where real numbers are expected, an
  integer array where floating-point numbers are rotated, a numpy ``out`` for a torch input.
- ``ValueError``: the argument is the right kind but a wrong *value*: out of range (``d = 0``, an odd
  ``d``, ``base = 1``, a factor below 1), not finite (``nan``, ``inf``), the wrong shape or length, or
  not one of the named options (``layout="halves"``).

Every message starts with the name of the function that was called and names the problem, e.g.
``apply_rope: last dimension must be even (dimensions come in pairs), got d=63``. Each validator returns the
value in the form the function computes with (an ``int``, a ``float``, a float64 array).
"""

from __future__ import annotations

import numbers

import numpy as np


def integer(value, name: str, who: str, minimum: int | None = None) -> int:
    """``value`` as an ``int``: an integer (Python or numpy, not a bool), at least ``minimum`` if given."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{who}: {name} must be an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{who}: {name} must be at least {minimum}, got {name}={value}")
    return int(value)


def even_dimension(d, who: str, name: str = "d") -> int:
    """``d`` as an ``int`` if it is a positive even integer: the width of vectors whose dimensions pair up.
    ``name`` is what the caller calls it (``head_dim``, ``rotary_dim``, ...)."""
    d = integer(d, name, who)
    if d <= 0 or d % 2:
        raise ValueError(f"{who}: {name} must be a positive even number (dimensions come in pairs), got {name}={d}")
    return d


def real(value, name: str, who: str, *, above: float | None = None, at_least: float | None = None) -> float:
    """``value`` as a finite ``float`` (a Python or numpy real number, not a bool), ``> above`` and
    ``>= at_least`` when those are given."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{who}: {name} must be a real number, got {value!r}")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{who}: {name} must be finite, got {name}={value}")
    if above is not None and value <= above:
        raise ValueError(f"{who}: {name} must be greater than {above:g}, got {name}={value:g}")
    if at_least is not None and value < at_least:
        raise ValueError(f"{who}: {name} must be at least {at_least:g}, got {name}={value:g}")
    return value


def base(value, who: str) -> float:
    """The base of a frequency ladder: a finite number greater than 1 (the ladder must fall)."""
    return real(value, "base", who, above=1.0)


def ladder(d, value, who: str) -> tuple[int, float]:
    """The width and base of a frequency ladder :math:`\\theta_j = \\text{base}^{-2j/d}`, checked together."""
    return even_dimension(d, who), base(value, who)


def option(value, options: tuple[str, ...], name: str, who: str) -> str:
    """``value`` if it is one of the strings ``options``."""
    if not isinstance(value, str):
        raise TypeError(f"{who}: {name} must be a string, one of {', '.join(options)}; got {value!r}")
    if value not in options:
        raise ValueError(f"{who}: {name} must be one of {', '.join(options)}; got {value!r}")
    return value


def real_array(values, name: str, who: str, *, ndim: int | None = None, min_ndim: int = 0,
               finite: bool = True) -> np.ndarray:
    """``values`` as a float64 array: real numbers (integer or floating-point dtype, not bool, complex or
    object), with ``ndim`` (or at least ``min_ndim``) dimensions, finite unless ``finite=False``.

    A torch tensor is read through numpy (detached, on the CPU)."""
    if hasattr(values, "detach"):
        values = values.detach().cpu().numpy()
    try:
        array = np.asarray(values)
    except ValueError as error:  # a ragged nested list
        raise ValueError(f"{who}: {name} must be a rectangular array, got {values!r}") from error
    if array.dtype == np.bool_ or not (np.issubdtype(array.dtype, np.integer)
                                       or np.issubdtype(array.dtype, np.floating)):
        raise TypeError(f"{who}: {name} must hold real numbers, got dtype {array.dtype}")
    if (ndim is not None and array.ndim != ndim) or array.ndim < min_ndim:
        wanted = f"{ndim}" if ndim is not None else f"at least {min_ndim}"
        raise ValueError(f"{who}: {name} must have {wanted} dimension(s), got shape {array.shape}")
    array = array.astype(np.float64)
    if finite and not np.all(np.isfinite(array)):
        raise ValueError(f"{who}: {name} must be finite, got {array[~np.isfinite(array)][:3]}")
    return array


def real_vector(values, name: str, who: str) -> np.ndarray:
    """``values`` as a finite float64 vector; a single number counts as a vector of length 1."""
    array = np.atleast_1d(real_array(values, name, who))
    if array.ndim != 1:
        raise ValueError(f"{who}: {name} must be a vector, got shape {array.shape}")
    return array


def positions(values, length: int, who: str, name: str = "positions") -> np.ndarray:
    """Positions as a finite float64 vector of ``length`` entries; ``None`` means ``0, 1, ..., length - 1``.

    A scalar offset is not accepted: pass ``offset + np.arange(length)``, so that a KV cache states its
    positions explicitly. ``name`` is the argument's name in messages (``rows``, ``cols`` for a grid)."""
    if values is None:
        return np.arange(length, dtype=np.float64)
    values = real_array(values, name, who)
    if values.ndim != 1 or values.shape[0] != length:
        raise ValueError(f"{who}: {name} must be a vector with one entry per position (length {length}), "
                         f"got shape {values.shape}")
    return values


def rotatable(x, who: str, *, pairs: bool = False) -> bool:
    """``x`` must be a numpy array or torch tensor (else TypeError) of floating-point numbers (else TypeError)
    with shape ``(..., seq, d)``, ``d`` even if ``pairs`` (else ValueError): what RoPE rotates. Returns whether
    ``x`` is a torch tensor."""
    torch_input = type(x).__module__.startswith("torch")
    if not (torch_input or isinstance(x, np.ndarray)):
        raise TypeError(f"{who}: x must be a numpy array or a torch tensor, got {type(x).__name__}")
    if not (x.is_floating_point() if torch_input else np.issubdtype(x.dtype, np.floating)):
        raise TypeError(f"{who}: x must hold floating-point numbers, got dtype {x.dtype} (try x.astype(float))")
    if x.ndim < 2:
        raise ValueError(f"{who}: x must have shape (..., seq, d), got shape {tuple(x.shape)}")
    if pairs and x.shape[-1] % 2:
        raise ValueError(f"{who}: last dimension must be even (dimensions come in pairs), got d={x.shape[-1]}")
    return torch_input


def like(value, x, name: str, who: str) -> None:
    """``value`` must be ``None`` or an array of ``x``'s kind and dtype (else TypeError) and shape (else ValueError):
    a buffer the result of a function of ``x`` can be written into (``out=``)."""
    if value is None:
        return
    if type(value) is not type(x) or value.dtype != x.dtype:
        raise TypeError(f"{who}: {name} must be a {type(x).__name__} of dtype {x.dtype} like x, "
                        f"got {type(value).__name__} of dtype {getattr(value, 'dtype', None)}")
    if value.shape != x.shape:
        raise ValueError(f"{who}: {name} must have x's shape {tuple(x.shape)}, got {tuple(value.shape)}")


def rows_of_one_width(q, k, who: str) -> tuple[np.ndarray, np.ndarray]:
    """Queries and keys as float64 arrays ``(..., n, d)`` of one width ``d``."""
    q, k = real_array(q, "q", who, min_ndim=2), real_array(k, "k", who, min_ndim=2)
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"{who}: queries and keys must have the same width, got {q.shape[-1]} and {k.shape[-1]}")
    return q, k


def query_and_key(q, k, who: str) -> tuple[np.ndarray, np.ndarray]:
    """A query and a key that RoPE can turn: finite float64 vectors of one shape ``(d,)`` with ``d`` even."""
    q, k = real_vector(q, "q", who), real_vector(k, "k", who)
    even_dimension(q.size, who)
    if q.shape != k.shape:
        raise ValueError(f"{who}: q and k must have the same shape, got {q.shape} and {k.shape}")
    return q, k


def plane_vector(values, name: str, who: str) -> np.ndarray:
    """A vector of the plane: a finite float64 array of shape ``(2,)``."""
    vector = real_array(values, name, who)
    if vector.shape != (2,):
        raise ValueError(f"{who}: {name} must be a vector of the plane, shape (2,), got shape {vector.shape}")
    return vector


def matrix(values, name: str, who: str, *, square: bool = False) -> np.ndarray:
    """A finite float64 matrix (two dimensions), square if asked."""
    m = real_array(values, name, who, ndim=2)
    if square and m.shape[0] != m.shape[1]:
        raise ValueError(f"{who}: {name} must be a square matrix, got shape {m.shape}")
    return m
