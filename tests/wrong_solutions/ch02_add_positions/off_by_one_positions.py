"""Token m receives row m + 1 of the table (positions counted from 1)."""

def add_positions(x, table):
    n = x.shape[0]
    if n >= table.shape[0]:
        raise ValueError(f"add_positions: the table has only {table.shape[0]} positions")
    return x + table[1 : n + 1]
