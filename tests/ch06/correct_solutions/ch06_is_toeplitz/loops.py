"""Compare each entry with its down-right neighbour, over the rows and columns of any shape; returns a Python bool."""




def is_toeplitz(s, tol=1e-9):
    rows, columns = len(s), len(s[0])
    return all(abs(s[m][j] - s[m + 1][j + 1]) <= tol for m in range(rows - 1) for j in range(columns - 1))
