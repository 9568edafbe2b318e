"""the exponent lacks its factor 2. Hint: the last hand should turn almost 1/base."""

import numpy as np


def frequencies(d, base=10000.0):
    return base ** (-np.arange(d // 2) / d)
