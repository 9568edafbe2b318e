"""Positions come from a padding mask, padded on the left or on the right (transformers' left-padded batches are
compared in tests/ch08; the KV cache is checked on the page of chapter 8)."""

from __future__ import annotations

import numpy as np

from posenc.decoding import positions_from_mask


def test_positions_from_mask_count_real_tokens_only():
    np.testing.assert_array_equal(positions_from_mask([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]),
                                  [[0, 0, 0, 1, 2], [0, 1, 2, 3, 4], [0, 1, 2, 0, 0]])
