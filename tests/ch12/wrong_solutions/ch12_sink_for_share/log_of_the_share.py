"""the sink is the keys' logsumexp plus ln(share): that leaves the keys 1 / (1 + share), not share. Hint: from
share = S / (exp(sink) + S), exp(sink) = S (1/share - 1); take the log of that."""

import numpy as np


def sink_for_share(scores, share):
    scores = np.asarray(scores, dtype=float)
    top = scores.max()
    return float(top + np.log(np.sum(np.exp(scores - top))) + np.log(share))
