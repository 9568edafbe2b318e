"""Mistakes in attention, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "capped_scores": ("the scores are capped instead of shifted, so large scores tie. Hint: subtract each row's "
                      "largest score before exp: that changes no weight and cannot overflow.",
                      {"np.exp(scores - scores.max(axis=1, keepdims=True))": "np.exp(np.clip(scores, -700, 700))"}),
    "divided_by_d": ("the scores are divided by d itself. Hint: the scale is the square root of d.",
                     {"np.sqrt(q.shape[-1])": "q.shape[-1]"}),
    "missing_sqrt_d": ("the scores are not scaled. Hint: divide q kᵀ by the square root of d, the width of q and k.",
                       {"q @ k.T / np.sqrt(q.shape[-1])": "q @ k.T"}),
    "rounded_scale": ("the scale is rounded to a whole number, right only where d is a square. Hint: divide by the "
                      "square root of d itself, not its integer part.",
                      {"np.sqrt(q.shape[-1])": "int(np.sqrt(q.shape[-1]))"}),
    "softmax_over_columns": ("the softmax runs down the columns. Hint: each query's weights form a row, and a row "
                             "should sum to 1.",
                             {"max(axis=1,": "max(axis=0,", "sum(axis=1,": "sum(axis=0,"}),
}
