"""The claims checked in chapter 9, *Stretching RoPE*

The rescaled ladders of context extension in their papers' and reference code's forms, the long-term decay bound,
and the extrapolation experiment.
"""

from __future__ import annotations

import numpy as np
import torch

from posenc import sinusoidal, validation
from posenc.decay import rope_partial_sums
from posenc.fourier import offset_coefficients
from posenc.rotary import apply_rope, rope_with_ladder
from posenc.scaling import (
    dynamic_ntk,
    llama3,
    ntk_aware,
    position_interpolation,
    yarn,
    yarn_correction_range,
    yarn_reference,
)
from posenc.torch_nn import TinyModel

from ..ch09 import LLAMA, PI, PI_FIXED, YARN
from .ch02 import untrained_rows_unchanged as untrained_rows_unchanged  # the learned table of chapter 9's experiment
from .result import ClaimResult, angle_tolerance, claim_result


def ntk_aware_ends(d: int = 128, factor: float = 8.0, base: float = 10000.0) -> ClaimResult:
    """NTK-aware scaling slows hand j by exactly s^(2j/(d-2)): it keeps the fastest hand, theta'_0 = theta_0, and
    divides the slowest by s (relative deviations, every hand)."""
    theta, scaled = sinusoidal.frequencies(d, base), ntk_aware(d, factor, base)
    slowed = factor ** (2 * np.arange(d // 2) / (d - 2))
    return claim_result(f"NTK-aware (s = {factor:g}): theta_j/theta'_j = s^(2j/(d-2)), 1 at j = 0 and s at j = d/2-1",
                        np.r_[theta / scaled / slowed - 1, slowed[0] - 1, slowed[-1] / factor - 1])


def dynamic_ntk_forms(d: int = 128, factor: float = 8.0, original_context: int = 8192,
                      base: float = 500000.0, lengths=(1024, 4096, 8192, 16384, 65536, 131072)) -> ClaimResult:
    """Dynamic NTK in the paper's form (``s = max(1, L'/L0)``, ``L'`` the current length) and in the reference code's
    (``s = factor * L'/L0 - (factor - 1)``): the same ladder for ``L' <= L0``; beyond, the slowest hand is
    divided by each form's ``s`` (relative deviations)."""
    theta = sinusoidal.frequencies(d, base)
    deviations = []
    for length in lengths:
        paper = dynamic_ntk(d, length, original_context, base)
        reference = dynamic_ntk(d, length, original_context, base, factor=factor)
        ratio = max(length, original_context) / original_context
        if length <= original_context:
            deviations.extend(reference / paper - 1)
        deviations += [theta[-1] / paper[-1] / ratio - 1,
                       theta[-1] / reference[-1] / (factor * ratio - (factor - 1)) - 1]
    return claim_result("dynamic NTK: reference form = paper form up to L0; slowest hand divided by each form's s",
                        deviations)


def yarn_forms_agree_outside_ramp(d: int = 128, factor: float = 8.0, original_context: int = 8192,
                                  base: float = 500000.0, beta_fast: float = 32.0,
                                  beta_slow: float = 1.0) -> ClaimResult:
    """YaRN's paper ramp (linear in the turns) and its reference code's (linear in the hand index, rounded
    bounds) give the same frequency on every hand up to ``low`` and from ``high`` on (relative deviations)."""
    low, high = yarn_correction_range(d, original_context, base, beta_fast, beta_slow)
    paper = yarn(d, factor, original_context, base, alpha=beta_slow, beta=beta_fast)
    reference = yarn_reference(d, factor, original_context, base, beta_fast, beta_slow)
    outside = (np.arange(d // 2) <= low) | (np.arange(d // 2) >= high)
    return claim_result(f"YaRN: paper ramp = reference ramp on hands <= {low} and >= {high}",
                        reference[outside] / paper[outside] - 1)


def llama3_is_yarn_ramp(d: int = 128, factor: float = 8.0, low_freq_factor: float = 1.0,
                        high_freq_factor: float = 4.0, original_context: int = 8192,
                        base: float = 500000.0) -> ClaimResult:
    """Llama 3.1's rule, written hand by hand as in Meta's reference code (keep, divide, or blend by
    ``smooth``), equals YaRN's ladder with alpha = low_freq_factor and beta = high_freq_factor."""
    meta = []
    for theta in sinusoidal.frequencies(d, base):
        wavelength = 2 * np.pi / theta
        if wavelength < original_context / high_freq_factor:
            meta.append(theta)
        elif wavelength > original_context / low_freq_factor:
            meta.append(theta / factor)
        else:
            smooth = (original_context / wavelength - low_freq_factor) / (high_freq_factor - low_freq_factor)
            meta.append((1 - smooth) * theta / factor + smooth * theta)
    ramp = yarn(d, factor, original_context, base, alpha=low_freq_factor, beta=high_freq_factor)
    return claim_result(f"Llama 3.1 rule = YaRN ramp with alpha = {low_freq_factor:g}, beta = {high_freq_factor:g}",
                        np.array(meta) / ramp - 1)


def llama3_bands(d: int = 128, factor: float = 8.0, low_freq_factor: float = 1.0, high_freq_factor: float = 4.0,
                 original_context: int = 8192, base: float = 500000.0) -> ClaimResult:
    """Llama 3.1's rule leaves wavelengths under L0/high_freq_factor unchanged and divides those over
    L0/low_freq_factor by the factor (relative deviations)."""
    theta, wavelength = sinusoidal.frequencies(d, base), sinusoidal.wavelengths(d, base)
    ratio = llama3(d, factor, low_freq_factor, high_freq_factor, original_context, base) / theta
    short, long = wavelength < original_context / high_freq_factor, wavelength > original_context / low_freq_factor
    return claim_result(f"Llama 3.1: wavelength < {original_context / high_freq_factor:g} kept, "
                        f"> {original_context / low_freq_factor:g} divided by {factor:g}",
                        np.concatenate([ratio[short] - 1, ratio[long] * factor - 1]))


def long_term_decay_bound_holds(d: int = 64, base: float = 10000.0, max_distance: int = 4096,
                                seed: int = 0) -> ClaimResult:
    """RoFormer's bound |score|/sqrt(d) <= max_j |h_(j+1) - h_j| * sum_j |S_j(Delta)| on the scaled score
    (Theta_m q)^T (Theta_n k) / sqrt(d) at the offset Delta = n - m, with chapter 6's coefficients
    h_j = conj(z_j(q)) z_j(k) / sqrt(d) and h_(d/2) = 0, for random q, k and every distance up to ``max_distance``;
    the key behind the query and ahead of it; the deviation is the largest excess of the left side (0 if none)."""
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    distances = np.arange(max_distance + 1)
    behind = apply_rope(np.tile(q, (len(distances), 1)), distances, base=base) @ k  # query at |Delta|, key at 0
    ahead = apply_rope(np.tile(k, (len(distances), 1)), distances, base=base) @ q   # query at 0, key at |Delta|
    h = np.r_[offset_coefficients(q, k), 0]
    bound = np.max(np.abs(np.diff(h))) * np.abs(rope_partial_sums(distances, d, base)).sum(axis=1)  # even in Delta
    return claim_result("|score|/sqrt(d) <= max|h_(j+1) - h_j| sum_j |S_j(Delta)|, Delta of either sign",
                        np.maximum(np.abs(np.r_[behind, ahead]) / np.sqrt(d) - np.r_[bound, bound], 0.0), 1e-9)


def interpolation_is_scaled_positions(d: int = 16, factor: float = 2.0, base: float = 10000.0, n: int = 128,
                                      seed: int = 0, frequencies=None) -> ClaimResult:
    r"""RoPE with position interpolation's ladder :math:`\theta_j/s` at the positions :math:`m` turns every
    pair exactly as ordinary RoPE does at :math:`m/s`, for random vectors at the positions
    :math:`0, \ldots, n-1`. ``frequencies`` replaces the interpolated ladder (to see the check fail on one
    that is not :math:`\theta/s`, e.g. YaRN's)."""
    ladder = position_interpolation(d, factor, base) if frequencies is None else frequencies
    x = np.random.default_rng(seed).standard_normal((n, d))
    positions = np.arange(n, dtype=float)
    deviation = rope_with_ladder(x, ladder, positions) - apply_rope(x, positions / factor, base=base)
    ladder_name = f"theta/{factor:g}" if frequencies is None else "the given ladder"
    return claim_result(f"RoPE with {ladder_name} at m = RoPE at m/{factor:g}", deviation, angle_tolerance(n))


# ---- The extrapolation experiment (posenc.book.experiments.ch09): what every seed shows ----
# Each check takes an :class:`~posenc.book.experiments.ch09.Extrapolation` and returns by how much the worst
# seed misses the claim (0 when every seed meets it), so a claim about "every seed" is one number.


def _at(result, task: str, methods, times: int) -> np.ndarray:
    """Accuracies of ``methods`` on ``task`` at the length ``times`` L0, shape ``(len(methods), seeds)``."""
    column = result.lengths.index(times * result.train_length)
    return np.array([result.accuracy[task][method][:, column] for method in methods])


def trained_models_copy_at_training_length(result, floor: float = 0.5) -> ClaimResult:
    """The learned table, the sinusoidal table and RoPE copy at least ``floor`` of the tokens at the training
    length, on both tasks and every seed (the deviation is the largest shortfall)."""
    worst = min(_at(result, task, ("learned table", "sinusoidal table", "RoPE"), 1).min() for task in result.accuracy)
    return ClaimResult(f"at L0 the tables and RoPE copy at least {floor:.0%} on both tasks, every seed",
                       max(floor - float(worst), 0.0), 0.0)


def position_free_models_fail_at_training_length(result, ceiling: float = 0.3) -> ClaimResult:
    """NoPE and ALiBi copy at most ``ceiling`` of the tokens already at the training length, on both tasks
    and every seed: one layer of them cannot do either task, so their rows say nothing about longer inputs."""
    best = max(_at(result, task, ("NoPE", "ALiBi"), 1).max() for task in result.accuracy)
    return ClaimResult(f"at L0 NoPE and ALiBi copy at most {ceiling:.0%} on both tasks, every seed",
                       max(float(best) - ceiling, 0.0), 0.0)


def block_copy_fails_off_the_trained_offset(result, ceiling: float = 0.25) -> ClaimResult:
    """On the block copy, every model that meets the answer at an offset (or angles) training never showed
    copies at most ``ceiling`` of the tokens, on every seed: the two tables, plain RoPE and RoPE with Llama
    3.1's rule at twice and four times the training length, interpolation at the fixed factor at the training
    length and twice it, and YaRN at twice it."""
    methods = ("learned table", "sinusoidal table", "RoPE", LLAMA)
    cells = [*(_at(result, "block copy", methods, times) for times in (2, 4)),
             *(_at(result, "block copy", (PI_FIXED,), times) for times in (1, 2)),
             _at(result, "block copy", (YARN,), 2)]
    best = max(float(cell.max()) for cell in cells)
    return ClaimResult(f"block copy off the trained offset: every such model copies at most {ceiling:.0%}, every seed",
                       max(best - ceiling, 0.0), 0.0)


def interpolation_leads_the_block_copy_and_rope_the_lag_copy(result, margin: float = 0.3) -> ClaimResult:
    """At twice the training length, on every seed: on the block copy, interpolation at s = L'/L0 beats plain
    RoPE by at least ``margin``; on the lag copy, plain RoPE beats interpolation, YaRN and Llama 3.1's rule by
    at least ``margin`` (the deviation is the largest shortfall of a lead)."""
    interpolation, plain = _at(result, "block copy", (PI, "RoPE"), 2)
    stretched = _at(result, "lag copy", (PI, YARN,
                                         LLAMA), 2)
    leads = np.concatenate([interpolation - plain, _at(result, "lag copy", ("RoPE",), 2)[0] - stretched.max(axis=0)])
    return ClaimResult(f"at 2 L0: interpolation leads RoPE on the block copy, RoPE leads every rescaling on the lag "
                       f"copy, by at least {margin:.0%}, every seed", max(margin - float(leads.min()), 0.0), 0.0)


# ---- Why one layer of NoPE or ALiBi cannot copy from a fixed offset ----


def one_layer_ignores_the_order_of_earlier_tokens(position: str = "none", n: int = 24, vocab: int = 17,
                                                  d_model: int = 32, n_heads: int = 4, seed: int = 0) -> ClaimResult:
    """A one-layer :class:`~posenc.torch_nn.TinyModel` (random weights, float64) gives the same logits at the last
    of ``n`` random tokens when the ``n - 1`` tokens before it are shuffled. With ``position="none"`` (NoPE) it
    holds for any weights: a head's weight on a key depends only on the query's token and the key's, so the
    output at a query is a function of the set of earlier tokens, and no readout can name the token a fixed
    distance back. ``"alibi"`` and ``"rope"`` read distance and fail."""
    position = validation.option(position, ("none", "alibi", "rope"), "position",
                             "one_layer_ignores_the_order_of_earlier_tokens")
    torch.manual_seed(seed)
    model = TinyModel(vocab, d_model, position=position, n_heads=n_heads).double()
    data = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, vocab, (1, n), generator=data)
    shuffled = tokens.clone()
    shuffled[0, :-1] = tokens[0, torch.randperm(n - 1, generator=data)]
    with torch.no_grad():
        before, after = (model(t)[0, -1].numpy() for t in (tokens, shuffled))
    return claim_result(f"one layer, positions {position!r}: last logits unchanged when the {n - 1} tokens before "
                        "it are shuffled", after - before)


def alibi_difference_bump(steep: float, gentle: float, distance: float) -> tuple[float, float]:
    r"""The bump that two ALiBi heads of slopes :math:`\mu_1 > \mu_2 > 0` make when one is subtracted from the
    other, :math:`f(|\Delta|) = e^{-\mu_2|\Delta|} - e^{-\mu_1|\Delta|}`: where it peaks,
    :math:`|\Delta|^\star = \ln(\mu_1/\mu_2)/(\mu_1 - \mu_2)` (where :math:`f' = 0`), and the share
    :math:`f(\text{distance})/f(|\Delta|^\star)` of its height left at ``distance``.

    >>> peak, share = alibi_difference_bump(1 / 4, 1 / 16, 16)
    >>> round(peak, 2), round(share, 2)
    (7.39, 0.74)
    """
    if not steep > gentle > 0:
        raise ValueError(f"alibi_difference_bump: need steep > gentle > 0, got steep={steep}, gentle={gentle}")
    peak = np.log(steep / gentle) / (steep - gentle)
    return float(peak), float(_bump(distance, steep, gentle) / _bump(peak, steep, gentle))


def _bump(distance, steep: float, gentle: float):
    """The difference of two ALiBi heads' decays at ``distance``, e^(-gentle |Delta|) - e^(-steep |Delta|)."""
    return np.exp(-gentle * np.asarray(distance)) - np.exp(-steep * np.asarray(distance))


def alibi_difference_is_a_broad_bump(steep: float = 0.25, gentle: float = 0.0625, distance: float = 16.0,
                                     floor: float = 0.5) -> ClaimResult:
    r"""The difference of two ALiBi heads' decays peaks where :func:`alibi_difference_bump` says (compared with the
    largest value on a grid of step 1e-4) and keeps at least ``floor`` of its height at ``distance``: it cannot
    single out one offset. The deviation adds the distance of the grid's peak from the formula's (tolerance:
    the grid step) and the shortfall of the share below ``floor``."""
    peak, share = alibi_difference_bump(steep, gentle, distance)
    grid = np.arange(0.0, 4 * peak, 1e-4)
    found = grid[np.argmax(_bump(grid, steep, gentle))]
    return ClaimResult(f"e^(-{gentle:g}|Delta|) - e^(-{steep:g}|Delta|) peaks at |Delta| = {peak:.2f} and keeps "
                       f"{share:.0%} of its height at |Delta| = {distance:g} (at least {floor:.0%})",
                       abs(found - peak) + max(floor - share, 0.0), 1e-4)
