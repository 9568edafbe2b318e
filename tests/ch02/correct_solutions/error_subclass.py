"""A ValueError of its own kind, whose message names both lengths."""


class TableTooShort(ValueError):
    pass


def add_positions(x, table):
    if len(x) > len(table):
        raise TableTooShort(f"table has {len(table)} positions, the sequence needs {len(x)}")
    return x + table[: len(x)]
