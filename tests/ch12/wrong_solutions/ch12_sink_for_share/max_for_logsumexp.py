"""the largest score stands in for the log of the sum of exp(scores). Hint: the keys' total is the sum of exp(s_n) over
all of them; its log is a logsumexp, not the largest score."""

import numpy as np


def sink_for_share(scores, share):
    return float(np.max(scores) + np.log(1.0 / share - 1.0))
