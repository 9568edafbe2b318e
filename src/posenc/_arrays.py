"""Small helpers shared by the modules: argument checks that name the problem, and the block-diagonal
rotation that both the sinusoidal shift matrix and RoPE's Theta_m are made of."""

from __future__ import annotations

import numbers

import numpy as np


def check_even_dimension(d: int, who: str) -> int:
    """Return ``d`` as an int if it is a positive even integer, else raise ``ValueError``."""
    if isinstance(d, bool) or not isinstance(d, numbers.Integral):
        raise TypeError(f"{who}: d must be an integer, got {d!r}")
    if d <= 0 or d % 2:
        raise ValueError(f"{who}: d must be a positive even number (dimensions come in pairs), got d={d}")
    return int(d)


def check_base(base: float, who: str) -> float:
    """Return ``base`` as a float if it is a finite number greater than 1, else raise ``ValueError``."""
    if isinstance(base, bool) or not isinstance(base, numbers.Real):
        raise TypeError(f"{who}: base must be a number, got {base!r}")
    if not np.isfinite(base) or base <= 1:
        raise ValueError(f"{who}: base must be a finite number greater than 1, got base={base}")
    return float(base)


def as_positions(positions, length: int, who: str) -> np.ndarray:
    """Positions as a float64 vector of the given length, or a ``ValueError``/``TypeError`` that says why.

    ``positions`` may be ``None`` (meaning ``0, 1, ..., length - 1``), a scalar offset is not accepted:
    pass ``offset + np.arange(length)`` instead, so that a KV cache states its positions explicitly.
    """
    if positions is None:
        return np.arange(length, dtype=np.float64)
    if hasattr(positions, "detach"):  # a torch tensor
        positions = positions.detach().cpu().numpy()
    values = np.asarray(positions)
    if values.dtype == object or not (
        np.issubdtype(values.dtype, np.integer)
        or np.issubdtype(values.dtype, np.floating)
        or values.dtype == np.bool_
    ):
        raise TypeError(f"{who}: positions must be integers or floats, got dtype {values.dtype}")
    if values.dtype == np.bool_:
        raise TypeError(f"{who}: positions must be integers or floats, got booleans")
    if values.ndim != 1 or values.shape[0] != length:
        raise ValueError(
            f"{who}: positions must be a vector with one entry per position (length {length}), "
            f"got shape {values.shape}"
        )
    values = values.astype(np.float64)
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{who}: positions must be finite, got {values[~np.isfinite(values)][:3]}")
    return values


def block_diagonal_rotation(angles: np.ndarray) -> np.ndarray:
    r"""The ``(d, d)`` matrix, ``d = 2 len(angles)``, whose block :math:`j` (dims ``2j, 2j+1``) is the
    counter-clockwise rotation :math:`R(\alpha_j) = \begin{bmatrix}\cos\alpha_j & -\sin\alpha_j \\
    \sin\alpha_j & \cos\alpha_j\end{bmatrix}`; zero outside the blocks."""
    c, s = np.cos(angles), np.sin(angles)
    even = np.arange(0, 2 * len(angles), 2)
    matrix = np.zeros((2 * len(angles), 2 * len(angles)))
    matrix[even, even], matrix[even, even + 1] = c, -s
    matrix[even + 1, even], matrix[even + 1, even + 1] = s, c
    return matrix
