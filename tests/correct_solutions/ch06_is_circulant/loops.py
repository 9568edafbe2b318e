"""Each row against the row above shifted right by one."""




def is_circulant(s, tol=1e-9):
    n = len(s)
    return all(abs(s[m][j] - s[m - 1][(j - 1) % n]) <= tol for m in range(1, n) for j in range(n))
