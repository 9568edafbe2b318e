"""Plain Python: every pair turned with math.cos and math.sin, the score summed term by term."""

import math


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
