"""the positions are off by one. Hint: the first token is at position 0."""

def add_positions(x, table):
    n = x.shape[0]
    if n >= table.shape[0]:
        raise ValueError(f"add_positions: the table has only {table.shape[0]} positions")
    return x + table[1 : n + 1]
