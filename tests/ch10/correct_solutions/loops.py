"""Plain Python with math and lists: the paper's recursive get_slopes (the list turned into an array at the end);
every pair turned with math.cos and math.sin and the score summed term by term."""

import math

import numpy as np


def alibi_slopes(n_heads):
    def power_of_two(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start**i for i in range(n)]

    if math.log2(n_heads).is_integer():
        return np.array(power_of_two(n_heads))
    closest = 2 ** math.floor(math.log2(n_heads))
    return np.array(power_of_two(closest) + power_of_two(2 * closest)[0::2][: n_heads - closest])


def partial_rope_score(q, k, m, n, rotary_fraction, base=10000.0):
    d = len(q)
    r = int(d * rotary_fraction)
    if r < 2 or r % 2 == 1:
        raise ValueError("partial_rope_score: rotary_fraction leaves an odd or empty rotated width")
    total = 0.0
    for j in range(r // 2):
        theta = base ** (-2 * j / r)
        qa, qb, ka, kb = q[2 * j], q[2 * j + 1], k[2 * j], k[2 * j + 1]
        cm, sm, cn, sn = math.cos(m * theta), math.sin(m * theta), math.cos(n * theta), math.sin(n * theta)
        qa, qb = qa * cm - qb * sm, qa * sm + qb * cm
        ka, kb = ka * cn - kb * sn, ka * sn + kb * cn
        total += qa * ka + qb * kb
    for i in range(r, d):
        total += q[i] * k[i]
    return total
