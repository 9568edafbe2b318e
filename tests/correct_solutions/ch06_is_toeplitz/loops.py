"""Compare each entry with its down-right neighbour; returns a Python bool."""




def is_toeplitz(s, tol=1e-9):
    n = len(s)
    return all(abs(s[m][j] - s[m + 1][j + 1]) <= tol for m in range(n - 1) for j in range(n - 1))
