"""the offsets run the wrong way. Hint: entry [m, j] belongs to the offset j - m (key minus query)."""

import numpy as np


def relative_scores(bias, n):
    m, j = np.indices((n, n))
    return bias[m - j + n - 1]
