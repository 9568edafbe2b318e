r"""A causal linear recurrence: the layer that reads order from the order in which it reads.

Hybrid stacks (Qwen3-Next, Kimi Linear) make most layers recurrent: linear attention with gates, or a
state-space layer. Their simplest form runs a state through the tokens in order,

.. math:: h_t = A h_{t-1} + B x_t, \qquad h_{-1} = 0, \qquad y_t = C h_t ,

so that :math:`y_t = \sum_{u \le t} C A^{t-u} B\, x_u`: token :math:`u` reaches output :math:`t` through the
kernel :math:`C A^{t-u} B`, a function of the offset :math:`t - u` alone. No position encoding enters, and
yet the layer is not permutation equivariant unless every kernel past the first vanishes.
"""

from __future__ import annotations

import numpy as np

from . import validation


def linear_recurrence(x, a, b, c) -> np.ndarray:
    r"""Run the causal linear recurrence :math:`h_t = A h_{t-1} + B x_t` (from :math:`h_{-1} = 0`),
    :math:`y_t = C h_t`, over the rows of ``x``.

    Parameters
    ----------
    x : array (N, d_in)
        One token per row, in order.
    a : array (d_state, d_state)
    b : array (d_state, d_in)
    c : array (d_out, d_state)

    Returns
    -------
    array (N, d_out)
        .. math:: y_t = \sum_{u=0}^{t} C A^{t-u} B\, x_u .

    >>> linear_recurrence([[1.0], [0.0], [0.0]], [[0.5]], [[1.0]], [[1.0]])
    array([[1.  ],
           [0.5 ],
           [0.25]])
    """
    who = "linear_recurrence"
    x = validation.real_array(x, "x", who, ndim=2)
    a = validation.matrix(a, "a", who, square=True)
    b, c = validation.matrix(b, "b", who), validation.matrix(c, "c", who)
    if b.shape != (len(a), x.shape[1]) or c.shape[1] != len(a):
        raise ValueError(f"{who}: shapes do not chain: x {x.shape}, a {a.shape}, b {b.shape}, c {c.shape}")
    h, y = np.zeros(len(a)), np.empty((len(x), len(c)))
    for t, x_t in enumerate(x):
        h = a @ h + b @ x_t
        y[t] = c @ h
    return y
