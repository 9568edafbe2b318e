"""Mistakes in offset_similarity, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "one_term_per_dimension": ("it adds one cosine per dimension instead of one per pair. Hint: PE(p)·PE(q) sums "
                               "sin·sin + cos·cos over each pair j: one cos(k θ_j) per pair.",
                               {"np.arange(0, d, 2)": "np.arange(d)"}),
    "sum_of_sines": ("that is a sum of sines. Hint: sin a sin b + cos a cos b is a cosine.",
                     {"np.cos": "np.sin"}),
}
