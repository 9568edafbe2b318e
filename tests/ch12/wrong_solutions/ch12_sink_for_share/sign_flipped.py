"""the term from the share has the wrong sign: a smaller share gives a smaller sink. Hint: the less weight the keys
keep, the larger the sink logit must be; solve share = S / (exp(sink) + S) again."""

import numpy as np


def sink_for_share(scores, share):
    scores = np.asarray(scores, dtype=float)
    top = scores.max()
    return float(top + np.log(np.sum(np.exp(scores - top))) - np.log(1.0 / share - 1.0))
