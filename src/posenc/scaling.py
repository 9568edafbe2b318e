r"""Context extension by rescaling RoPE's angles: one function per published method.

A model trained on contexts of ``original_context`` tokens has seen every hand :math:`j` of its clock turn
through the angles :math:`m\theta_j` for :math:`0 \le m <` ``original_context``. Run it on longer inputs
and the slow hands, the ones whose wavelength :math:`\lambda_j = 2\pi/\theta_j` exceeds that original
context (the length the unscaled ladder was trained at), reach angles it never saw. Each method below returns
a new frequency ladder :math:`\theta'_j`, shape ``(d//2,)``, whose angles :math:`m\theta'_j` replace
:math:`m\theta_j`; the methods differ in which hands they slow down, and by how much.

Notation: :math:`s` is the rope ``factor`` by which the methods divide frequencies (position interpolation
at factor :math:`s` fits :math:`s` times the original context; a released model's factor need not equal its
length ratio, since training on long sequences does the rest), :math:`L_0` the
``original_context`` and :math:`r_j = L_0/\lambda_j` the number of full turns hand :math:`j` makes over
the original context.
"""

from __future__ import annotations

import math

import numpy as np

from . import validation
from .sinusoidal import frequencies, wavelengths


def _factor(factor: float, who: str) -> float:
    """A rope factor (what the frequencies are divided by): a finite number of at least 1."""
    return validation.real(factor, "factor", who, at_least=1.0)


def position_interpolation(d: int, factor: float, base: float = 10000.0) -> np.ndarray:
    r"""Position interpolation (Chen et al., 2023, arXiv:2306.15595): every angle divided by ``factor``.

    .. math:: \theta'_j = \theta_j / s .

    Position :math:`m` of the long input then turns every hand exactly as position :math:`m/s` did in
    training, so the angles stay inside the trained range; the price is that neighbouring tokens sit
    :math:`s` times closer on every hand, the fast ones included.

    >>> position_interpolation(4, 2, base=100.0)
    array([0.5 , 0.05])
    """
    factor = _factor(factor, "position_interpolation")
    return frequencies(*validation.ladder(d, base, "position_interpolation")) / factor


def ntk_aware_base(d: int, factor: float, base: float = 10000.0) -> float:
    r"""The enlarged base of NTK-aware scaling (bloc97, 2023): :math:`b' = b\,s^{d/(d-2)}`."""
    return _ntk_base(d, factor, base, "ntk_aware_base")


def _ntk_base(d: int, factor: float, base: float, who: str) -> float:
    (d, base), factor = validation.ladder(d, base, who), _factor(factor, who)
    if d <= 2:
        raise ValueError(f"{who}: d must be at least 4 (the exponent is d/(d-2)), got d={d}")
    return base * factor ** (d / (d - 2))


def ntk_aware(d: int, factor: float, base: float = 10000.0) -> np.ndarray:
    r"""NTK-aware scaling (bloc97, 2023): the ordinary ladder with the base :math:`b' = b\,s^{d/(d-2)}`.

    .. math:: \theta'_j = (b\,s^{d/(d-2)})^{-2j/d} = \theta_j\, s^{-2j/(d-2)} .

    Hand 0 is untouched (:math:`s^0 = 1`) and the slowest hand, :math:`j = d/2 - 1`, is divided by
    exactly :math:`s`; the hands in between are slowed by factors spread geometrically between the two.

    >>> ntk_aware(4, 4, base=100.0)    # base 100 * 4**2 = 1600
    array([1.   , 0.025])
    """
    return frequencies(d, _ntk_base(d, factor, base, "ntk_aware"))


def dynamic_ntk(d: int, seq_len: int, original_context: int, base: float = 10000.0,
                factor: float = 1.0) -> np.ndarray:
    r"""Dynamic NTK scaling (emozilla, 2023; Peng et al., 2023, §3.3): NTK-aware with a factor set by
    the current length.

    .. math:: s_{\text{eff}} = \text{factor}\cdot\frac{\max(L, L_0)}{L_0} - (\text{factor} - 1),
              \qquad \theta'_j = \text{ntk\_aware}(d, s_{\text{eff}}, b)_j ,

    with :math:`L` = ``seq_len``. Up to the original context :math:`s_{\text{eff}} = 1` and the ladder
    is the original one; beyond it the base grows with the input, so short inputs are never distorted.
    With the default ``factor = 1``, :math:`s_{\text{eff}} = L/L_0` (the form in the YaRN paper); other
    values follow the original post and Hugging Face's ``dynamic`` rope type. Hugging Face reads :math:`L_0`
    there from ``max_position_embeddings``, not ``original_max_position_embeddings``; a model configured for
    this type sets it to its trained length, which is ``original_context`` here.
    """
    who = "dynamic_ntk"
    seq_len = validation.real(seq_len, "seq_len", who, above=0.0)
    original_context = validation.real(original_context, "original_context", who, above=0.0)
    factor = _factor(factor, who)
    effective = factor * max(seq_len, original_context) / original_context - (factor - 1)
    return frequencies(d, _ntk_base(d, effective, base, who))


def _ramp_blend(d: int, factor: float, original_context: float, base: float, ramp: dict[str, float],
                who: str, step: bool = False) -> np.ndarray:
    r"""Blend :math:`\theta_j` (kept) and :math:`\theta_j/s` (interpolated) by the ramp
    :math:`\gamma(r_j) = \operatorname{clip}\big((r_j - \text{low})/(\text{high} - \text{low}), 0, 1\big)`
    over the turns :math:`r_j = L_0/\lambda_j`: :math:`\theta'_j = (1-\gamma)\,\theta_j/s + \gamma\,\theta_j`.
    With ``step``, low = high is allowed: the ramp's limit, :math:`\gamma = 1` for :math:`r_j > \text{high}`, else 0."""
    (d, base), factor = validation.ladder(d, base, who), _factor(factor, who)
    original_context = validation.real(original_context, "original_context", who, above=0.0)
    (low_name, low), (high_name, high) = ((name, validation.real(value, name, who)) for name, value in ramp.items())
    if not (0 < low <= high if step else 0 < low < high):
        raise ValueError(f"{who}: the ramp needs 0 < {low_name} {'<=' if step else '<'} {high_name}, "
                         f"got {low_name}={low:g}, {high_name}={high:g}")
    turns = original_context / wavelengths(d, base)  # r_j, falling with j
    gamma = (turns > high).astype(float) if low == high else np.clip((turns - low) / (high - low), 0.0, 1.0)
    theta = frequencies(d, base)
    return (1 - gamma) * theta / factor + gamma * theta


def yarn(d: int, factor: float, original_context: int, base: float = 10000.0,
         alpha: float = 1.0, beta: float = 32.0) -> np.ndarray:
    r"""YaRN's frequencies, "NTK-by-parts" (Peng et al., 2023, arXiv:2309.00071, §3.2).

    With :math:`r_j = L_0/\lambda_j` the turns of hand :math:`j` over the original context and the ramp

    .. math:: \gamma(r) = \begin{cases} 0 & r < \alpha \\ 1 & r > \beta \\
              \dfrac{r - \alpha}{\beta - \alpha} & \text{otherwise,} \end{cases} \qquad
              \theta'_j = \big(1 - \gamma(r_j)\big)\frac{\theta_j}{s} + \gamma(r_j)\,\theta_j .

    Hands that turn more than :math:`\beta` times in training keep their frequency; hands that turn less
    than :math:`\alpha` times are interpolated (divided by :math:`s`); the ramp blends in between.
    The paper recommends :math:`\alpha = 1`, :math:`\beta = 32` for Llama. (The authors' code, and
    Hugging Face's port, ramp in the hand index instead: :func:`yarn_reference`.) Pair it with
    :func:`yarn_attention_scale`.
    """
    return _ramp_blend(d, factor, original_context, base, {"alpha": alpha, "beta": beta}, "yarn")


def yarn_attention_scale(factor: float) -> float:
    r"""YaRN's attention temperature as the factor on queries and keys: :math:`\sqrt{1/t} = 0.1\ln s + 1`.

    Multiplying both the rotated queries and keys by it divides the logits by :math:`t`
    (Peng et al., 2023, §3.4), sharpening the softmax that longer inputs flatten.

    >>> round(yarn_attention_scale(16), 4)
    1.2773
    """
    return 0.1 * math.log(_factor(factor, "yarn_attention_scale")) + 1.0


def yarn_mscale_split(factor: float, mscale: float = 1.0, mscale_all_dim: float = 0.0) -> tuple[float, float]:
    r"""DeepSeek's YaRN temperature, split in two: the factor on cos and sin, and the one on the softmax scale.

    With :math:`g(s, \mu) = 0.1\,\mu\ln s + 1` (1 for :math:`s \le 1`), the ``modeling_deepseek.py`` shipped with
    DeepSeek's checkpoints (and transformers' ``deepseek_v2``/``deepseek_v3``) multiplies the softmax scale
    :math:`1/\sqrt{d}` by :math:`g(s, \mu_\text{all})^2` and, when both settings are set and non-zero (as in every
    released configuration), the cosines and sines by :math:`g(s, \mu)/g(s, \mu_\text{all})`, so the rotated part
    of every logit by its square. A logit :math:`s_\text{nope} + s_\text{rope}` of a split head thus becomes
    :math:`g(s, \mu_\text{all})^2 s_\text{nope} + g(s, \mu)^2 s_\text{rope}`: the YaRN paper's :math:`1/t`
    (:func:`yarn_attention_scale` squared) on every coordinate exactly when :math:`\mu = \mu_\text{all} = 1`.
    When either setting is 0 (absent), transformers puts YaRN's own :math:`g(s, 1)` on the cosines and sines
    instead, whatever the other says; this function does the same.

    Returns ``(on cos and sin, on the softmax scale)``.

    >>> tuple(round(x, 4) for x in yarn_mscale_split(40, 1.0, 1.0))   # DeepSeek-V3: all on the softmax scale
    (1.0, 1.8739)
    """
    who = "yarn_mscale_split"
    factor = _factor(factor, who)
    mscale, mscale_all_dim = (validation.real(value, name, who, at_least=0.0)
                              for value, name in ((mscale, "mscale"), (mscale_all_dim, "mscale_all_dim")))
    rope, every = (0.1 * mu * math.log(factor) + 1.0 for mu in (mscale, mscale_all_dim))
    return (rope / every if mscale and mscale_all_dim else yarn_attention_scale(factor)), every**2


def llama3(d: int, factor: float = 8.0, low_freq_factor: float = 1.0, high_freq_factor: float = 4.0,
           original_context: int = 8192, base: float = 500000.0) -> np.ndarray:
    r"""Llama 3.1's frequency rule (Meta's reference code for Grattafiori et al., 2024, arXiv:2407.21783).

    Wavelengths shorter than :math:`L_0/\text{high\_freq\_factor}` (2048 by default) are kept, those
    longer than :math:`L_0/\text{low\_freq\_factor}` (8192) are divided by ``factor`` (8), and in between

    .. math:: \theta'_j = (1 - \sigma_j)\frac{\theta_j}{s} + \sigma_j\theta_j, \qquad
              \sigma_j = \frac{L_0/\lambda_j - \text{low\_freq\_factor}}
                              {\text{high\_freq\_factor} - \text{low\_freq\_factor}},

    which is YaRN's ramp (:func:`yarn`) with :math:`\alpha` = ``low_freq_factor`` and
    :math:`\beta` = ``high_freq_factor``, and no change of temperature. With ``low_freq_factor`` =
    ``high_freq_factor`` (Llama 4 Scout's released configuration: both 1, ``factor`` 16) there is no ramp, only a
    step: wavelengths shorter than :math:`L_0/\text{high\_freq\_factor}` are kept and the others divided by
    ``factor``, as transformers' ``llama3`` rope type computes them.

    >>> int(np.sum(llama3(128, 16, 1, 1) == frequencies(128, 500000.0)))    # Scout: hands kept of 64
    35
    """
    ramp = {"low_freq_factor": low_freq_factor, "high_freq_factor": high_freq_factor}
    return _ramp_blend(d, factor, original_context, base, ramp, "llama3", step=True)


# ---- The reference code's form of YaRN (and Hugging Face's ``yarn`` rope type): a ramp linear in the hand index ----


def yarn_correction_range(d: int, original_context: int, base: float = 10000.0, beta_fast: float = 32.0,
                          beta_slow: float = 1.0) -> tuple[int, int]:
    r"""The hands ``(low, high)`` between which YaRN's reference code ramps.

    Hand :math:`j` makes :math:`r_j = L_0\theta_j/2\pi = L_0\,b^{-2j/d}/2\pi` turns over the training
    context, so it makes :math:`r` turns at the fractional index

    .. math:: j(r) = \frac{d\,\ln\big(L_0/(2\pi r)\big)}{2\ln b} .

    The code rounds outward (Hugging Face's only when ``truncate`` is true, its default),
    ``low`` :math:`= \lfloor j(\beta_\text{fast})\rfloor` and ``high`` :math:`= \lceil j(\beta_\text{slow})\rceil`,
    and clips them to :math:`[0, d - 1]`
    (``beta_fast`` is the paper's :math:`\beta`, ``beta_slow`` its :math:`\alpha`).

    >>> yarn_correction_range(128, 4096)    # Llama 2: d = 128, base 10,000, L0 = 4,096
    (20, 46)
    """
    who = "yarn_correction_range"
    d, base = validation.ladder(d, base, who)
    original_context = validation.real(original_context, "original_context", who, above=0.0)
    beta_slow = validation.real(beta_slow, "beta_slow", who, above=0.0)
    if not beta_slow < validation.real(beta_fast, "beta_fast", who, above=0.0):
        raise ValueError(f"{who}: need beta_slow < beta_fast, got beta_slow={beta_slow}, beta_fast={beta_fast}")

    def index(turns: float) -> float:
        return d * math.log(original_context / (turns * 2 * math.pi)) / (2 * math.log(base))

    return max(math.floor(index(beta_fast)), 0), min(math.ceil(index(beta_slow)), d - 1)


def yarn_reference(d: int, factor: float, original_context: int, base: float = 10000.0,
                   beta_fast: float = 32.0, beta_slow: float = 1.0) -> np.ndarray:
    r"""YaRN's frequencies as its reference code computes them: the ramp is linear in the hand index.

    With ``(low, high)`` from :func:`yarn_correction_range` and :math:`j = 0, \ldots, d/2 - 1`,

    .. math:: \rho_j = \operatorname{clip}\Big(\frac{j - \text{low}}{\text{high} - \text{low}}, 0, 1\Big),
              \qquad \theta'_j = \rho_j\,\frac{\theta_j}{s} + (1 - \rho_j)\,\theta_j ,

    so hands up to ``low`` keep their frequency and hands from ``high`` on are divided by :math:`s`, as in
    :func:`yarn`; in between, :math:`1 - \rho_j` takes the place of the paper's :math:`\gamma(r_j)`, which is
    linear in :math:`r_j` and so exponential in :math:`j`. (When ``low == high`` the code widens the ramp to
    ``high + 0.001``.)

    >>> bool(np.allclose(yarn_reference(128, 16, 4096)[:21], frequencies(128)[:21]))
    True
    """
    (d, base), factor = validation.ladder(d, base, "yarn_reference"), _factor(factor, "yarn_reference")
    low, high = yarn_correction_range(d, original_context, base, beta_fast, beta_slow)
    width = high - low if high > low else 0.001
    rho = np.clip((np.arange(d // 2) - low) / width, 0.0, 1.0)
    theta = frequencies(d, base)
    return rho * theta / factor + (1 - rho) * theta


# ---- LongRoPE (Phi-3, Phi-3.5): a searched factor per hand, switched by the length of the input ----


def longrope(d: int, short_factor, long_factor, seq_len: int, original_context: int,
             base: float = 10000.0) -> np.ndarray:
    r"""LongRoPE's frequencies (Ding et al., 2024, arXiv:2402.13753), as Phi-3 and Hugging Face's ``longrope``
    rope type run them: hand :math:`j` divided by its own rescale factor, one list for short inputs and
    one for long ones.

    .. math:: \theta'_j = \frac{\theta_j}{s_j}, \qquad
              s_j = \begin{cases} \text{short\_factor}_j & L \le L_0 \\ \text{long\_factor}_j & L > L_0 \end{cases}

    with :math:`L` = ``seq_len`` the length of the input (in a decoder, the largest position + 1). The
    factors are found by a search, not by a formula; every ladder of the other methods is of this form with
    :math:`s_j = \theta_j/\theta'_j` (YaRN's: :math:`s_j = s/(1 + (s - 1)\gamma(r_j))`). Pair it with
    :func:`longrope_attention_scale`.

    Parameters
    ----------
    d : int
        The rotated width (Phi-3's ``head_dim`` times ``partial_rotary_factor``).
    short_factor, long_factor : sequences of ``d/2`` positive numbers
        The rescale factors :math:`s_j`, from the fastest hand to the slowest.
    seq_len, original_context : numbers
        The input length :math:`L` and the original context :math:`L_0`.
    base : float
        The base of the ladder.

    Returns
    -------
    ndarray, shape ``(d/2,)``: the ladder :math:`\theta'_j`.

    >>> longrope(4, [1.0, 2.0], [1.0, 8.0], seq_len=100, original_context=64, base=100.0)  # long: 100 > 64
    array([1.    , 0.0125])
    """
    who = "longrope"
    d, base = validation.ladder(d, base, who)
    seq_len = validation.real(seq_len, "seq_len", who, above=0.0)
    original_context = validation.real(original_context, "original_context", who, above=0.0)
    short_factor, long_factor = (_rescale_factors(f, name, d, who)
                                 for f, name in ((short_factor, "short_factor"), (long_factor, "long_factor")))
    return frequencies(d, base) / (short_factor if seq_len <= original_context else long_factor)


def _rescale_factors(values, name: str, d: int, who: str) -> np.ndarray:
    """A list of LongRoPE factors: ``d/2`` finite positive numbers, one per hand."""
    factors = validation.real_vector(values, name, who)
    if factors.size != d // 2 or np.any(factors <= 0):
        raise ValueError(f"{who}: {name} must hold d/2 = {d // 2} positive numbers, got {factors.size} "
                         f"with smallest {factors.min():g}")
    return factors


# Phi-3.5-mini-instruct's released LongRoPE configuration (config.json: rope_scaling, rope_theta, head width 96):
# the one searched ladder the book reads, in chapter 11 and in the comparisons with transformers' Phi-3 code.
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


def longrope_attention_scale(factor: float, original_context: int) -> float:
    r"""Phi-3's LongRoPE factor on the rotated queries and keys, :math:`\sqrt{1 + \ln s/\ln L_0}`: the default of
    the LongRoPE authors' code (``_calc_mscale_su`` in microsoft/LongRoPE), which Phi-3's code and Hugging Face's use.

    Here :math:`s` is the context's growth (Phi-3: ``max_position_embeddings / original_max_position_embeddings``)
    and :math:`L_0` the original context. Hugging Face multiplies the cosines and sines by it, so every rotated
    coordinate of the queries and keys is multiplied by it and, where the whole head rotates (Phi-3), every
    logit by :math:`1 + \ln s/\ln L_0 = \ln(sL_0)/\ln L_0`: the log of the new context over the log of the old
    one. Under partial rotary only the rotated part of each logit is multiplied. Hugging Face applies it at every
    length, short inputs included.

    >>> round(longrope_attention_scale(32, 4096), 6)    # sqrt(1 + 5/12)
    1.190238
    """
    who = "longrope_attention_scale"
    factor = _factor(factor, who)
    original_context = validation.real(original_context, "original_context", who, above=1.0)
    return math.sqrt(1 + math.log(factor) / math.log(original_context))
