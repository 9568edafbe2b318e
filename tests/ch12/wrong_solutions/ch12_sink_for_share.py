"""Mistakes in sink_for_share, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "log_of_the_share": ("the sink is the keys' logsumexp plus ln(share): that leaves the keys 1 / (1 + share), not "
                         "share. Hint: from share = S / (exp(sink) + S), exp(sink) = S (1/share - 1); take the log of "
                         "that.",
                         {"np.log(1.0 / share - 1.0)": "np.log(share)"}),
    "max_for_logsumexp": ("the largest score stands in for the log of the sum of exp(scores). Hint: the keys' total is "
                          "the sum of exp(s_n) over all of them; its log is a logsumexp, not the largest score.",
                          {" + np.log(np.sum(np.exp(scores - top)))": ""}),
    "overflows": ("exp of a large score overflows: past a score of about 700, e^s is more than a float can hold. Hint: "
                  "take the largest score out before exp and add it back after the log: log S = top + log(sum of "
                  "exp(s_n - top)).",
                  {"    logsumexp = top + np.log(np.sum(np.exp(scores - top)))":
                   "    import math\n    logsumexp = math.log(sum(math.exp(s) for s in scores))"}),
    "sign_flipped": ("the term from the share has the wrong sign: a smaller share gives a smaller sink. Hint: the less "
                     "weight the keys keep, the larger the sink logit must be; solve share = S / (exp(sink) + S) "
                     "again.",
                     {"logsumexp + np.log": "logsumexp - np.log"}),
}
