"""Each row against the row above shifted right by one, after refusing a matrix that is not square."""




def is_circulant(s, tol=1e-9):
    n = len(s)
    if any(len(row) != n for row in s):
        raise ValueError(f"is_circulant: the matrix must be square, got {n} rows of {len(s[0])}")
    return all(abs(s[m][j] - s[m - 1][(j - 1) % n]) <= tol for m in range(1, n) for j in range(n))
