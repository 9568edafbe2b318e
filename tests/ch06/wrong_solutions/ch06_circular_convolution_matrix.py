"""Mistakes in circular_convolution_matrix, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "correlation": ("that is a cross-correlation (y taken at m + ℓ, as a convolution layer reads it). Hint: a circular "
                    "convolution takes y at (m - ℓ) mod N, the filter read backwards.",
                    {"(m - p) % size": "(p - m) % size"}),
    "no_wrap": ("the sum does not wrap around. Hint: the index m - ℓ is taken modulo N.",
                {"w[(m - p) % size]": "np.where(m >= p, w[(m - p) % size], 0.0)"}),
}
