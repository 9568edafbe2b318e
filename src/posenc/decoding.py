r"""RoPE while generating text: the positions of a padded batch.

Because RoPE's score depends only on :math:`n - m`, a prompt padded on the left keeps its scores when positions
are counted over its real tokens only. (The KV cache, whose keys are rotated once at their own positions, is
written out on the page of chapter 8.)
"""

from __future__ import annotations

import numpy as np

from . import validation


def positions_from_mask(mask) -> np.ndarray:
    r"""Each token's position counted over the real tokens of its row: ``cumsum(mask) - 1``.

    ``mask`` (shape ``(..., seq)``, 1 for a token and 0 for padding) is the attention mask of a padded
    batch. A row padded on the left, ``[0, 0, 1, 1]``, gets positions ``[0, 0, 0, 1]``: its first real
    token sits at 0 exactly as it would without padding. Padding slots get 0; they are masked out, so their
    value never reaches a score.

    >>> positions_from_mask([[1, 1, 1, 1], [0, 0, 1, 1]])
    array([[0, 1, 2, 3],
           [0, 0, 0, 1]])
    """
    mask = np.asarray(mask)
    mask = validation.real_array(mask.astype(np.int64) if mask.dtype == np.bool_ else mask, "mask",
                             "positions_from_mask", min_ndim=1)
    if not np.all((mask == 0) | (mask == 1)):
        raise ValueError("positions_from_mask: mask must be an array of 0s and 1s (1 marks a real token)")
    return np.where(mask == 1, np.cumsum(mask, axis=-1) - 1, 0).astype(np.int64)
