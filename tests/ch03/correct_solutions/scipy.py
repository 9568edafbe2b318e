"""scipy.linalg.block_diag of the 2x2 blocks."""

import numpy as np
from scipy.linalg import block_diag


def shift_matrix(k, d, base=10000.0):
    blocks = []
    for j in range(d // 2):
        t = k * base ** (-2 * j / d)
        blocks.append(np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]]))
    return block_diag(*blocks)
