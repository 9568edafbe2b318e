"""The claims checked in chapter 11, *RoPE in current models*

LongRoPE's factors and temperature, RoPE and NoPE layers in one stack, windows that bound the angles, interleaved
M-RoPE, and the rotary part of multi-head latent attention.
"""

from __future__ import annotations

import math

import numpy as np

from posenc import attention as att
from posenc.latent_attention import mla_scores
from posenc.mixed_layers import chunk_mask, window_mask
from posenc.rotary import apply_rope, rope_matrix
from posenc.rotary_axes import mrope, mrope_axes
from posenc.scaling import dynamic_ntk, longrope, longrope_attention_scale, yarn
from posenc.sinusoidal import frequencies, wavelengths

from .result import TOL, ClaimResult, angle_tolerance, claim_result, plane_rotations

# Phi-3.5-mini-instruct's rotary configuration (its config.json on the Hugging Face Hub): a head of 96 rotated
# coordinates (hidden size 3072, 32 heads), base 10,000, trained context 4,096, context 131,072, and the two
# lists of rescale factors that LongRoPE's search produced, one per hand, fastest first (to two decimals).
PHI35_MINI = {
    "d": 96, "base": 10000.0, "original_context": 4096, "context": 131072,
    "short_factor": (1.0, 1.02, 1.03, 1.03, 1.05, 1.05, 1.05, 1.05, 1.05, 1.07, 1.1, 1.11, 1.16, 1.16, 1.17, 1.29,
                     1.34, 1.68, 1.79, 1.82, 1.85, 1.88, 1.91, 1.94, 1.99, 2.02, 2.02, 2.02, 2.02, 2.02, 2.02, 2.03,
                     2.03, 2.03, 2.03, 2.03, 2.03, 2.03, 2.03, 2.03, 2.08, 2.09, 2.19, 2.22, 2.59, 2.73, 2.75, 2.84),
    "long_factor": (1.08, 1.11, 1.14, 1.34, 1.59, 1.6, 1.62, 2.62, 3.23, 3.23, 4.79, 7.4, 7.7, 9.09, 12.2, 17.67,
                    24.46, 28.57, 30.42, 30.84, 32.59, 32.93, 42.32, 44.96, 50.34, 50.45, 57.55, 57.93, 58.21,
                    60.14, 62.61, 62.62, 62.71, 63.14, 63.14, 63.77, 63.93, 63.96, 63.97, 64.03, 64.07, 64.08,
                    64.12, 64.41, 64.48, 64.51, 64.53, 64.84),
}


# The settings the chapter computes with, each compared with transformers' configuration in tests/test_ch11.py.
LLAMA4 = {"n_layers": 48, "nope_every": 4, "chunk": 8192, "attn_scale": 0.1,
          "floor_scale": 8192}  # transformers' Llama4TextConfig defaults
GEMMA3 = {"d": 256, "window": 1024, "local_base": 10000.0, "global_base": 1000000.0, "factor": 8.0, "every": 6,
          "context": 131072}  # Gemma 3 12B's published configuration
QWEN_VL_MROPE = {"d": 128, "base": 5000000.0,  # Qwen3-VL-8B's config.json (transformers' class default: 500,000)
                 "splits": {"sections": (16, 24, 24), "interleaved": (24, 20, 20)}}  # Qwen2-VL's, Qwen3-VL's
DEEPSEEK_V3 = {"heads": 128, "d_nope": 128, "d_rope": 64, "d_lat": 512, "d_value": 128}  # DeepseekV3Config defaults


# ---- LongRoPE ----


def longrope_switches_at_the_original_context(config: dict = PHI35_MINI) -> ClaimResult:
    """LongRoPE's ladder is theta_j / short_j for every length up to L0 and theta_j / long_j beyond: each side
    written out hand by hand, base ** (-2j/d) / factor, and compared with ``scaling.longrope`` at the lengths 1,
    L0, L0 + 1 and the full context (relative deviations)."""
    d, base, context = config["d"], config["base"], config["original_context"]
    short, long = config["short_factor"], config["long_factor"]

    def written_out(factors):
        return np.array([base ** (-2 * j / d) / factor for j, factor in enumerate(factors)])

    deviations = [longrope(d, short, long, length, context, base) / written_out(factors) - 1
                  for length, factors in ((1, short), (context, short), (context + 1, long),
                                          (config["context"], long))]
    return claim_result(f"LongRoPE: theta_j/short_j up to L0 = {context}, theta_j/long_j beyond", deviations)


def yarn_factors(d: int, factor: float, original_context: int, base: float = 10000.0, alpha: float = 1.0,
                 beta: float = 32.0) -> np.ndarray:
    r"""The rescale factor YaRN's ramp puts on each hand, :math:`s_j = s/(1 + (s - 1)\gamma(r_j))`, with the
    turns :math:`r_j = L_0\theta_j/2\pi` and :math:`\gamma(r) = \operatorname{clip}((r - \alpha)/(\beta - \alpha),
    0, 1)` written out here."""
    turns = original_context * frequencies(d, base) / (2 * np.pi)
    gamma = np.clip((turns - alpha) / (beta - alpha), 0.0, 1.0)
    return factor / (1 + (factor - 1) * gamma)


def yarn_is_a_longrope_ladder(d: int = 96, factor: float = 32.0, original_context: int = 4096,
                              base: float = 10000.0, alpha: float = 1.0, beta: float = 32.0) -> ClaimResult:
    """YaRN's ladder is the LongRoPE ladder whose factors are :func:`yarn_factors` (relative deviations)."""
    phi = yarn_factors(d, factor, original_context, base, alpha, beta)
    ladder = longrope(d, phi, phi, original_context, original_context, base)
    return claim_result(f"YaRN (s = {factor:g}) = LongRoPE with s_j = s/(1 + (s - 1) gamma(r_j))",
                        ladder / yarn(d, factor, original_context, base, alpha, beta) - 1)


def dynamic_ntk_is_a_longrope_ladder_at_each_length(d: int = 96, original_context: int = 4096,
                                                     base: float = 10000.0, times=(2, 4, 8)) -> ClaimResult:
    """At each length L' = k L0 (k in ``times``, each above 1), dynamic NTK's ladder (the paper's form) slows every
    hand, so it is the LongRoPE ladder with s_j = theta_j/theta'_j >= 1, written out through ``scaling.longrope``;
    but no two lengths share a list of factors, so LongRoPE's two lists cannot hold it at every length. The
    deviation adds the relative error of the written-out ladders, the hands a ladder speeds up and the pairs of
    lengths whose factors coincide."""
    theta = frequencies(d, base)
    lists = [theta / dynamic_ntk(d, k * original_context, original_context, base) for k in times]
    error = max(np.abs(longrope(d, s, s, k * original_context, original_context, base) * s / theta - 1).max()
                for k, s in zip(times, lists, strict=True))
    faster = sum(int(np.sum(s < 1 - TOL)) for s in lists)
    shared = sum(np.allclose(a, b) for i, a in enumerate(lists) for b in lists[i + 1:])
    lengths = ", ".join(f"{k:g} L0" for k in times)
    return claim_result(f"dynamic NTK at {lengths}: a LongRoPE ladder with s_j >= 1 at each, a new list at each",
                        error + faster + shared)


def longrope_logit_factor(factor: float = 32.0, original_context: int = 4096) -> ClaimResult:
    """LongRoPE's factor on queries and keys, squared, is ln(s L0) / ln L0: what it does to every logit."""
    scale = longrope_attention_scale(factor, original_context)
    ratio = math.log(factor * original_context) / math.log(original_context)
    return claim_result(f"LongRoPE (s = {factor:g}, L0 = {original_context}): (factor on q and k)^2 = ln(s L0)/ln L0",
                        [scale**2 - ratio])


# ---- RoPE and NoPE layers in one stack ----


def _stack(x: np.ndarray, weights, kinds, positions, causal: bool) -> np.ndarray:
    """Layers of one attention head with residual connections, h <- h + Attention(h W_Q, h W_K, h W_V); a
    ``"rope"`` layer turns its queries and keys by ``positions``, a ``"nope"`` layer does not."""
    mask = att.causal_mask(len(x)) if causal else None
    h = x
    for kind, (w_q, w_k, w_v) in zip(kinds, weights, strict=True):
        q, k = h @ w_q, h @ w_k
        if kind == "rope":
            q, k = apply_rope(q, positions), apply_rope(k, positions)
        h = h + att.attention(q, k, h @ w_v, mask)
    return h


def _tiny_stack(first: str, n: int, d: int, seed: int):
    """Tokens, weights and layer kinds of a two-layer stack: ``first`` ("rope" or "nope"), then a NoPE layer."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    weights = [tuple(rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3)) for _ in range(2)]
    return x, weights, (first, "nope")


def stack_permutation_equivariance(first: str = "nope", causal: bool = False, n: int = 6, d: int = 8,
                                   seed: int = 0) -> ClaimResult:
    """Stack(PX) = P Stack(X) for a two-layer stack (``first`` layer, then a NoPE layer) and a random permutation
    of its tokens; positions are the slots 0, ..., n-1. It holds for NoPE layers without a mask and fails
    with a causal mask or with a RoPE layer below."""
    x, weights, kinds = _tiny_stack(first, n, d, seed)
    order = np.roll(np.arange(n), 1)  # moves every token: no fixed point
    slots = np.arange(n)
    mask = "causal" if causal else "no mask"
    moved_first = _stack(x[order], weights, kinds, slots, causal)
    return claim_result(f"{kinds[0]} + {kinds[1]}, {mask}: Stack(PX) = P Stack(X)",
                        moved_first - _stack(x, weights, kinds, slots, causal)[order])


def stack_sees_only_offsets(first: str = "rope", causal: bool = True, shift: int = 1000, n: int = 6, d: int = 8,
                            seed: int = 0) -> ClaimResult:
    """The two-layer stack gives the same outputs when every position id moves by ``shift``: no layer reads an
    absolute id (RoPE reads differences, the mask reads order, NoPE reads nothing)."""
    x, weights, kinds = _tiny_stack(first, n, d, seed)
    ids = np.arange(n)
    mask = "causal" if causal else "no mask"
    return claim_result(f"{kinds[0]} + {kinds[1]}, {mask}: Stack(X, ids + {shift}) = Stack(X, ids)",
                        _stack(x, weights, kinds, ids + shift, causal) - _stack(x, weights, kinds, ids, causal),
                        angle_tolerance(shift + n))


# ---- A window bounds the angles ----


def offsets_seen(mask: np.ndarray) -> np.ndarray:
    """The offsets n - m of the (query m, key n) pairs a boolean mask lets through, sorted."""
    rows, cols = np.nonzero(mask)
    seen = np.zeros(max(2 * len(mask) - 1, 0), dtype=bool)
    seen[cols - rows + len(mask) - 1] = True  # offsets -(n - 1) .. n - 1, marked without sorting
    return np.flatnonzero(seen) - (len(mask) - 1)


def window_offsets_do_not_grow(window: int = 1024, lengths=(1024, 3072), kind: str = "window") -> ClaimResult:
    """At every length from ``window`` on, a sliding-window mask (``kind="window"``) or a chunked mask
    (``kind="chunk"``) of size ``window`` lets through exactly the offsets -(window - 1), ..., 0: the deviation
    counts the offsets that differ from that set, over all ``lengths``."""
    make = {"window": window_mask, "chunk": chunk_mask}[kind]
    expected = set(range(-(window - 1), 1))
    differ = [len(expected ^ set(offsets_seen(make(n, window)).tolist())) for n in lengths]
    return ClaimResult(f"{kind} of {window}: offsets -{window - 1}..0 at lengths {', '.join(map(str, lengths))}",
                       float(max(differ)), 0.0)


def slow_hands_barely_move(window: int = 1024, d: int = 256, base: float = 10000.0, seed: int = 0) -> ClaimResult:
    r"""For every hand j and every offset :math:`\Delta` in the window, pair j's share of the score moves from its
    position-free value by at most :math:`|\Delta|\theta_j\,|q_{[j]}|\,|k_{[j]}|`:
    :math:`|q_{[j]}^\top R(\Delta\theta_j) k_{[j]} - q_{[j]}^\top k_{[j]}| \le |\Delta|\theta_j|q_{[j]}||k_{[j]}|`.
    The deviation is the largest excess of the left side over the bound (0 if none)."""
    q, k = np.random.default_rng(seed).standard_normal((2, d // 2, 2))  # the pairs q_[j], k_[j]
    delta = -np.arange(window)
    angles = np.multiply.outer(delta, frequencies(d, base))  # (window, d/2)
    turned = np.einsum("wjab,jb->wja", plane_rotations(angles.ravel()).reshape(*angles.shape, 2, 2), k)
    moved = np.abs(np.einsum("ja,wja->wj", q, turned) - np.einsum("ja,ja->j", q, k))
    bound = np.abs(angles) * np.linalg.norm(q, axis=1) * np.linalg.norm(k, axis=1)
    return claim_result(f"window of {window}, base {base:g}: |pair score - position-free| "
                        "<= |offset| theta_j |q_j||k_j|", np.maximum(moved - bound, 0.0), TOL * window)


# ---- Interleaved M-RoPE ----


def qwen3_vl_axis(j: int, sections) -> int:
    """The axis that turns pair j in Qwen3-VL's interleaved M-RoPE, written as its code reads: height where
    j % 3 == 1 below 3 * sections[1], width where j % 3 == 2 below 3 * sections[2], time elsewhere."""
    if j % 3 == 1 and j < 3 * sections[1]:
        return 1
    if j % 3 == 2 and j < 3 * sections[2]:
        return 2
    return 0


def interleaved_mrope_turns_each_pair_by_its_axis(seq: int = 12, d: int = 128, sections=(24, 20, 20),
                                                  base: float = QWEN_VL_MROPE["base"], seed: int = 0) -> ClaimResult:
    """Interleaved M-RoPE (``split="interleaved"``) turns pair j of token m by ids[a(j), m] * theta_j, with a(j)
    from :func:`qwen3_vl_axis`: each pair turned here by its own 2x2 rotation, for random ids."""
    rng = np.random.default_rng(seed)
    x, ids = rng.standard_normal((seq, d)), rng.integers(0, 200, (3, seq))
    theta = frequencies(d, base)
    expected = np.empty_like(x)
    for j in range(d // 2):
        angles = ids[qwen3_vl_axis(j, sections)] * theta[j]
        expected[:, 2 * j:2 * j + 2] = np.einsum("mab,mb->ma", plane_rotations(angles), x[:, 2 * j:2 * j + 2])
    return claim_result(f"interleaved M-RoPE, sections {tuple(sections)}: pair j turned by its axis's id",
                        mrope(x, ids, sections, base=base, split="interleaved") - expected, angle_tolerance(200))


def interleaved_mrope_on_text_is_rope(seq: int = 16, d: int = 128, sections=(24, 20, 20),
                                      base: float = QWEN_VL_MROPE["base"], seed: int = 0) -> ClaimResult:
    """Interleaved M-RoPE with three equal ids per token (text) is ``apply_rope``, bit for bit (tolerance 0)."""
    x = np.random.default_rng(seed).standard_normal((seq, d))
    ids = np.tile(np.arange(seq), (3, 1))
    return claim_result(f"interleaved M-RoPE with sections {tuple(sections)} and equal ids = RoPE",
                        mrope(x, ids, sections, base=base, split="interleaved") - apply_rope(x, base=base), 0.0)


def admissible_sections(d: int) -> list[tuple[int, int, int]]:
    """Every split (J_0, J_1, J_2) of the d/2 pairs that interleaving accepts: 3 J_1 - 2 < d/2, 3 J_2 - 1 < d/2."""
    half = d // 2
    return [(half - j1 - j2, j1, j2) for j1 in range(half + 1) for j2 in range(half + 1 - j1)
            if 3 * j1 - 2 < half and 3 * j2 - 1 < half]


def each_axis_owns_its_count_and_a_fast_hand(split: str = "interleaved", d: int = 32,
                                             base: float = QWEN_VL_MROPE["base"]) -> ClaimResult:
    """For every admissible split of a head of width d: axis a owns J_a hands, each axis with J_a > 0 owns one of
    the hands 0, 1, 2, and along the hands of height and of width each wavelength is base^(6/d) times the one
    before. The deviation counts the splits that break one of these (plus the relative error of the ratios).
    ``split="interleaved"`` holds; ``split="sections"`` keeps the counts and fails the other two."""
    failures, ratio_error = 0, 0.0
    lam, splits = wavelengths(d, base), admissible_sections(d)
    for sections in splits:
        owners = mrope_axes(sections, d, split=split)
        counts_ok = np.array_equal(np.bincount(owners, minlength=3), sections)
        fast_ok = all(J == 0 or axis in owners[:3] for axis, J in enumerate(sections))
        steps = [np.diff(np.flatnonzero(owners == axis)) for axis in (1, 2)]
        spread_ok = all(np.all(step == 3) for step in steps)
        failures += not (counts_ok and fast_ok and spread_ok)
        for axis in (1, 2):
            hands = lam[owners == axis]
            if spread_ok and hands.size > 1:
                ratio_error = max(ratio_error, np.abs(hands[1:] / hands[:-1] / base ** (6 / d) - 1).max())
    return claim_result(f"{split}: every admissible split of d = {d} ({len(splits)}) gives each "
                        "axis its J_a hands, one of the three fastest, wavelengths base^(6/d) apart",
                        failures + ratio_error, TOL)


# ---- Multi-head latent attention ----


def _latent_head(n: int, d: int, d_lat: int, seed: int):
    """Queries, latents and a key up-projection (rank d) of one head."""
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, d)), rng.standard_normal((n, d_lat)), rng.standard_normal((d, d_lat))


def absorbed_score_equals_explicit(rotated: bool = False, n: int = 8, d: int = 8, d_lat: int = 16,
                                   seed: int = 0) -> ClaimResult:
    """The explicit score q_m^T (W_UK x_n) against the absorbed one (W_UK^T q_m)^T x_n, for every query m and key n
    (relative to the largest score). With ``rotated=True`` both sides carry RoPE, the query turned before it is
    absorbed, (W_UK^T Theta_m q_m)^T x_n, against (Theta_m q_m)^T Theta_n W_UK x_n: it fails."""
    q, latents, w_uk = _latent_head(n, d, d_lat, seed)
    keys = latents @ w_uk.T  # W_UK x_n, one row per key
    if rotated:
        q, keys = apply_rope(q), apply_rope(keys)
    explicit, absorbed = q @ keys.T, (q @ w_uk) @ latents.T
    rotation = "with RoPE" if rotated else "no rotation"
    return claim_result(f"{rotation}: (W_UK^T q_m)^T x_n = q_m^T W_UK x_n",
                        (absorbed - explicit) / np.abs(explicit).max())


def mla_scores_equal_explicit_keys(heads: int = 3, n: int = 10, d_nope: int = 8, d_rope: int = 4, d_lat: int = 16,
                                   seed: int = 0) -> ClaimResult:
    """``latent_attention.mla_scores`` (absorbed content part, shared rotary key) equals the scores of the explicit
    keys [W_UK x_n, Theta_n k_n] against the queries [q_nope, Theta_m q_rope], head by head."""
    rng = np.random.default_rng(seed)
    q_nope, q_rope = rng.standard_normal((heads, n, d_nope)), rng.standard_normal((heads, n, d_rope))
    latents, k_rope = rng.standard_normal((n, d_lat)), rng.standard_normal((n, d_rope))
    w_uk = rng.standard_normal((heads, d_nope, d_lat))
    keys = np.concatenate([latents @ np.swapaxes(w_uk, 1, 2), np.broadcast_to(apply_rope(k_rope), (heads, n, d_rope))],
                          axis=-1)
    queries = np.concatenate([q_nope, apply_rope(q_rope)], axis=-1)
    explicit = queries @ np.swapaxes(keys, 1, 2)
    return claim_result(f"MLA, {heads} heads: absorbed scores = explicit keys' scores",
                        (mla_scores(q_nope, q_rope, latents, k_rope, w_uk) - explicit) / np.abs(explicit).max())


def only_the_zero_query_has_an_absorbed_form(rotated: bool = True, m: int = 5, d: int = 8, d_lat: int = 16,
                                              seed: int = 0) -> ClaimResult:
    r"""The queries q at position m for which one vector :math:`\tilde q` serves every key n = 0..m: since
    :math:`\tilde q` must be :math:`W_{UK}^\top\Theta_{n-m}^\top q` for each n, they are the null space of the
    stacked differences :math:`W_{UK}^\top(\Theta_{n-m}^\top - I)`, n < m. The deviation is its dimension: 0 with
    RoPE (only q = 0), d without rotation (every q absorbs), where the check fails."""
    w_uk = _latent_head(1, d, d_lat, seed)[2]
    turn = (lambda k: rope_matrix(k, d)) if rotated else (lambda k: np.eye(d))
    system = np.vstack([w_uk.T @ (turn(n - m).T - np.eye(d)) for n in range(m)])
    singular = np.linalg.svd(system, compute_uv=False)
    nullity = d - int(np.sum(singular > 1e-10 * max(singular.max(), 1.0)))
    rotation = "with RoPE" if rotated else "no rotation"
    return claim_result(f"{rotation}: queries at m = {m} with one absorbed vector for keys 0..{m}: "
                        f"a space of dimension {nullity}", nullity, 0.0)
