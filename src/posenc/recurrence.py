r"""A causal linear recurrence: the layer that reads order from the order in which it reads.

Hybrid stacks (Qwen3-Next, Kimi Linear) make most layers recurrent: linear attention with gates, or a
state-space layer. Their simplest form runs a state through the tokens in order,

.. math:: h_m = A h_{m-1} + W_\text{in} x_m, \qquad h_{-1} = 0, \qquad y_m = W_\text{out} h_m ,

so that :math:`y_m = \sum_{n \le m} W_\text{out} A^{m-n} W_\text{in}\, x_n`: token :math:`n` reaches output :math:`m`
through a matrix that depends on the offset :math:`n - m` alone. No position encoding enters, and
yet the layer is not permutation equivariant unless every kernel past the first vanishes: unless the outputs
receive nothing from earlier tokens.
"""

from __future__ import annotations

import numpy as np

from . import validation


def linear_recurrence(x, a, w_in, w_out) -> np.ndarray:
    r"""Run the causal linear recurrence :math:`h_m = A h_{m-1} + W_\text{in} x_m` (from :math:`h_{-1} = 0`),
    :math:`y_m = W_\text{out} h_m`, over the rows of ``x``.

    Parameters
    ----------
    x : array (N, d_in)
        One token per row, in order.
    a : array (d_state, d_state)
    w_in : array (d_state, d_in)
    w_out : array (d_out, d_state)

    Returns
    -------
    array (N, d_out)
        .. math:: y_m = \sum_{n=0}^{m} W_\text{out} A^{m-n} W_\text{in}\, x_n .

    >>> linear_recurrence([[1.0], [0.0], [0.0]], [[0.5]], [[1.0]], [[1.0]])
    array([[1.  ],
           [0.5 ],
           [0.25]])
    """
    who = "linear_recurrence"
    x = validation.real_array(x, "x", who, ndim=2)
    a = validation.matrix(a, "a", who, square=True)
    w_in, w_out = validation.matrix(w_in, "w_in", who), validation.matrix(w_out, "w_out", who)
    if w_in.shape != (len(a), x.shape[1]) or w_out.shape[1] != len(a):
        raise ValueError(f"{who}: shapes do not chain: x {x.shape}, a {a.shape}, w_in {w_in.shape}, "
                         f"w_out {w_out.shape}")
    h, y = np.zeros(len(a)), np.empty((len(x), len(w_out)))
    for m, x_m in enumerate(x):
        h = a @ h + w_in @ x_m
        y[m] = w_out @ h
    return y
