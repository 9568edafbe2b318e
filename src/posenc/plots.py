"""The book's one figure style, and the figure helpers the chapters share.

Every figure is made by a function here, so the chapters stay short and look alike: the same fonts,
colours, labelled axes with units, and no chart junk.
"""

from __future__ import annotations

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np

from .geometry import plane_angle, rotation_2d

INK = "#222222"
QUERY, KEY, MUTED = "#1f77b4", "#d62728", "#9a9a9a"
PALETTE = [QUERY, KEY, "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]

STYLE = {
    "figure.dpi": 110,
    "savefig.dpi": 110,
    "figure.figsize": (7.0, 3.2),
    "font.size": 10,
    "axes.titlesize": 10.5,
    "axes.labelsize": 10,
    "axes.edgecolor": INK,
    "axes.labelcolor": INK,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": mpl.cycler(color=PALETTE),
    "xtick.color": INK,
    "ytick.color": INK,
    "legend.frameon": False,
    "image.cmap": "RdBu_r",
}


def use_book_style() -> None:
    """Apply the book's matplotlib style (idempotent); every chapter calls it once."""
    mpl.rcParams.update(STYLE)


def heatmap(ax, values: np.ndarray, *, row_labels=None, col_labels=None, title: str = "",
            limit: float | None = None, symmetric: bool = True):
    """Draw ``values`` as a heatmap on ``ax`` and return the image (for a colorbar).

    With ``symmetric`` the map is diverging and centred on zero, from ``-limit`` to ``limit`` (default:
    the largest magnitude in ``values``); otherwise it is sequential (viridis).
    """
    values = np.asarray(values)
    limit = limit or float(np.max(np.abs(values))) or 1.0
    kwargs = {"vmin": -limit, "vmax": limit, "cmap": "RdBu_r"} if symmetric else {"cmap": "viridis"}
    image = ax.imshow(values, aspect="auto", interpolation="nearest", **kwargs)
    if row_labels is not None:
        ax.set_yticks(range(len(row_labels)), row_labels)
    if col_labels is not None:
        ax.set_xticks(range(len(col_labels)), col_labels)
    ax.set_title(title)
    ax.spines[["left", "bottom"]].set_visible(False)
    return image


def permuted_outputs(out_a: np.ndarray, tokens_a, out_b: np.ndarray, tokens_b, *, title_a: str, title_b: str):
    """Two attention outputs side by side, one row per token: the figure of chapter 1.

    When attention cannot see order, the rows of the two panels are the same vectors in another order.
    """
    fig, axes = plt.subplots(1, 2, figsize=(7.2, 2.6), sharex=True, constrained_layout=True)
    limit = float(max(np.abs(out_a).max(), np.abs(out_b).max()))
    for ax, out, tokens, title in ((axes[0], out_a, tokens_a, title_a), (axes[1], out_b, tokens_b, title_b)):
        image = heatmap(ax, out, row_labels=tokens, title=title, limit=limit)
        ax.set_xlabel("output coordinate")
    fig.colorbar(image, ax=axes, fraction=0.04, pad=0.02, label="value")
    return fig


# --- Chapters 2 and 3: learned rows, the sinusoidal table and its ladder, similarity, score terms ---


def similarity_curves(positions, panels: dict[str, dict[str, np.ndarray]], *, ylabel: str, marks=(),
                      xlabel: str = "position q"):
    """Side-by-side panels of curves over ``positions``: ``panels`` maps a panel title to
    ``{curve label: values}``. Dotted vertical lines at ``marks`` (e.g. the reference positions).
    Short curves get a dot at every position; long ones are plain lines."""
    fig, axes = plt.subplots(1, len(panels), figsize=(7.2, 2.7), sharey=True, squeeze=False,
                             constrained_layout=True)
    marker = "." if len(positions) <= 100 else None
    for ax, (title, curves) in zip(axes[0], panels.items(), strict=True):
        for (label, values), colour in zip(curves.items(), PALETTE, strict=False):
            ax.plot(positions, values, marker=marker, markersize=3, linewidth=1, color=colour, label=label)
        for mark in marks:
            ax.axvline(mark, color=MUTED, linestyle=":", linewidth=0.8)
        ax.set_title(title)
        ax.set_xlabel(xlabel)
    axes[0, 0].set_ylabel(ylabel)
    if any(len(curves) > 1 for curves in panels.values()):
        axes[0, -1].legend(loc="lower right", fontsize=8.5)
    return fig


def row_changes(change: np.ndarray, train_length: int, *, ylabel: str = "largest change of an entry"):
    """How far training moved each row of a learned position table, with the rows that no training
    sequence reached (``>= train_length``) shaded."""
    fig, ax = plt.subplots(figsize=(7.0, 2.6), constrained_layout=True)
    rows = np.arange(len(change))
    ax.axvspan(train_length - 0.5, len(change) - 0.5, color=MUTED, alpha=0.15, linewidth=0)
    ax.plot(rows, change, color=QUERY, linewidth=0.8)
    ax.axvline(train_length - 0.5, color=INK, linestyle=":", linewidth=0.8)
    ax.text(train_length + 8, 0.93 * float(np.max(change)), "never in a training sequence", va="top", color=INK)
    ax.set_xlim(-0.5, len(change) - 0.5)
    ax.set_xlabel("row of the table (position)")
    ax.set_ylabel(ylabel)
    return fig


def sinusoidal_heatmap(table: np.ndarray):
    """The sinusoidal table as an image: one row per position, one column per dimension."""
    fig, ax = plt.subplots(figsize=(7.0, 3.6), constrained_layout=True)
    image = heatmap(ax, table, limit=1.0)
    ax.set_xlabel("dimension i (pair j = dimensions 2j, 2j+1)")
    ax.set_ylabel("position p")
    fig.colorbar(image, ax=ax, fraction=0.04, pad=0.02, label="PE[p, i]")
    return fig


def frequency_ladder(theta: np.ndarray):
    """The ladder :math:`\\theta_j` on a log scale, read off in radians per position (left axis) and in
    positions per full turn, :math:`2\\pi/\\theta_j` (right axis)."""
    fig, ax = plt.subplots(figsize=(7.0, 2.8), constrained_layout=True)
    ax.semilogy(np.arange(len(theta)), theta, "o", color=QUERY, markersize=4)
    ax.set_xlabel("pair j")
    ax.set_ylabel(r"$\theta_j$ (radians per position)")
    wavelength = ax.secondary_yaxis("right", functions=(_per_turn, _per_turn))  # its own inverse
    wavelength.set_ylabel(r"wavelength $2\pi/\theta_j$ (positions)")
    ax.spines["right"].set_visible(True)
    return fig


def _per_turn(x):
    """:math:`2\\pi/x`: radians per position to positions per turn and back (matplotlib also passes 0)."""
    with np.errstate(divide="ignore"):
        return 2 * np.pi / np.asarray(x, dtype=np.float64)


def score_terms(terms: dict[str, np.ndarray], deviations: dict[str, float], columns: int = 3):
    """Small heatmaps of score matrices, ``columns`` to a row, each titled with its largest deviation from
    constant diagonals, :math:`\\max |S_{m,n} - S_{m+1,n+1}|`; every panel has its own colour scale,
    centred on zero."""
    rows = -(-len(terms) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(7.0, 2.6 * rows), squeeze=False, constrained_layout=True)
    for ax, (name, values) in zip(axes.flat, terms.items(), strict=False):
        heatmap(ax, values, title=f"{name}\ndiagonals vary by {deviations[name]:.2g}")
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_xlabel("key position n")
        ax.set_ylabel("query position m")
    for ax in list(axes.flat)[len(terms):]:
        ax.set_visible(False)
    return fig


# Chapters 4-7: rotated pairs in the plane, scores along a shift, norms, Toeplitz maps, the clock.


def _arrow(ax, vector, color, *, label=None, style="-", width=1.8):
    """An arrow from the origin to ``vector``, with an optional label just beyond its tip."""
    ax.annotate("", xy=vector, xytext=(0, 0),
                arrowprops={"arrowstyle": "-|>", "color": color, "lw": width, "linestyle": style,
                            "shrinkA": 0, "shrinkB": 0, "mutation_scale": 12})
    if label:
        tip = np.asarray(vector, dtype=float)
        ax.annotate(label, xy=tip * 1.13, color=color, ha="center", va="center", fontsize=9)


def _plane_axes(ax, radius: float, title: str):
    circle = np.linspace(0, 2 * np.pi, 200)
    ax.plot(radius * np.cos(circle), radius * np.sin(circle), color=MUTED, lw=0.6, ls=":")
    ax.axhline(0, color=MUTED, lw=0.5)
    ax.axvline(0, color=MUTED, lw=0.5)
    ax.set_aspect("equal")
    ax.set_xlim(-1.35 * radius, 1.35 * radius)
    ax.set_ylim(-1.35 * radius, 1.35 * radius)
    ax.set_xlabel("coordinate 1")
    ax.set_ylabel("coordinate 2")
    ax.set_title(title)


def rotated_pairs(q, k, position_pairs, theta: float):
    """One panel per ``(m, n)``: the content vectors ``q`` and ``k`` (grey, dashed) and the rotated
    :math:`R_m q`, :math:`R_n k` (colour), with the arc of the angle from the rotated query to the rotated key.

    The figure of chapter 4: the rotated pairs point elsewhere in each panel, the angle between them does not.
    """
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    radius = float(max(np.linalg.norm(q), np.linalg.norm(k)))
    fig, axes = plt.subplots(1, len(position_pairs), figsize=(3.4 * len(position_pairs), 3.6),
                             constrained_layout=True)
    for ax, (m, n) in zip(np.atleast_1d(axes), position_pairs, strict=True):
        rq, rk = rotation_2d(m * theta) @ q, rotation_2d(n * theta) @ k
        _plane_axes(ax, radius, f"query at m = {m}, key at n = {n}")
        _arrow(ax, q, MUTED, label="q", style="--", width=1.2)
        _arrow(ax, k, MUTED, label="k", style="--", width=1.2)
        _arrow(ax, rq, QUERY, label=f"$R_{{{m}}}q$")
        _arrow(ax, rk, KEY, label=f"$R_{{{n}}}k$")
        start, turn = np.arctan2(rq[1], rq[0]), plane_angle(rq, rk)
        arc = start + np.linspace(0, turn, 60)
        ax.plot(0.35 * radius * np.cos(arc), 0.35 * radius * np.sin(arc), color=INK, lw=1)
        middle = start + turn / 2
        ax.annotate(f"{np.degrees(turn):.0f}°", xy=(0.55 * radius * np.cos(middle), 0.55 * radius * np.sin(middle)),
                    ha="center", va="center", fontsize=9, color=INK)
    return fig


def score_along_shift(shifts, rope_scores, additive_scores):
    """The score of one query-key pair as both slide along the sequence by ``shifts``: RoPE against
    sinusoidal vectors added to the content."""
    fig, ax = plt.subplots(figsize=(7.0, 2.8), constrained_layout=True)
    ax.plot(shifts, additive_scores, color=MUTED, lw=1.2,
            label="added sinusoidal vectors: $(q + p_{m+s})^\\top(k + p_{n+s})/\\sqrt{d}$")
    ax.plot(shifts, rope_scores, color=QUERY, lw=2, label="RoPE: $(\\Theta_{m+s}q)^\\top(\\Theta_{n+s}k)/\\sqrt{d}$")
    ax.set_xlabel("shift s applied to both positions (positions)")
    ax.set_ylabel("score")
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=2, fontsize=8.5)
    return fig


def norm_along_position(positions, additive_norms, rope_norms):
    """The length of a query at each position: with a sinusoidal vector added, and rotated by RoPE."""
    fig, ax = plt.subplots(figsize=(7.0, 2.8), constrained_layout=True)
    ax.plot(positions, additive_norms, color=MUTED, lw=1.2, label="added: $\\|q + p_m\\|$")
    ax.plot(positions, rope_norms, color=QUERY, lw=2, label="rotated: $\\|\\Theta_m q\\|$")
    ax.set_xlabel("position m")
    ax.set_ylabel("length of the query")
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=2, fontsize=9)
    return fig


def toeplitz_scores(scores: np.ndarray):
    """Left: the score matrix as a heatmap (query position down, key position across). Right: every entry
    plotted against its offset :math:`n - m`; a Toeplitz matrix puts all entries of an offset on one point."""
    scores = np.asarray(scores)
    fig, (left, right) = plt.subplots(1, 2, figsize=(7.4, 3.2), constrained_layout=True,
                                      gridspec_kw={"width_ratios": [1, 1.25]})
    image = heatmap(left, scores, title="score matrix S")
    left.set_xlabel("key position n")
    left.set_ylabel("query position m")
    fig.colorbar(image, ax=left, fraction=0.046, pad=0.03)
    m, n = np.indices(scores.shape)
    right.scatter((n - m).ravel(), scores.ravel(), s=8, color=QUERY, alpha=0.5)
    right.axhline(0, color=MUTED, lw=0.5)
    right.set_xlabel("offset n − m (positions)")
    right.set_ylabel("score")
    right.set_title("every entry against its offset")
    return fig


def offset_sinusoid(offsets, scores, curve_offsets, curve, period: float):
    """One hand's score at whole offsets (dots) on its sinusoid (line), with the period marked."""
    fig, ax = plt.subplots(figsize=(7.0, 2.8), constrained_layout=True)
    ax.plot(curve_offsets, curve, color=MUTED, lw=1)
    ax.plot(offsets, scores, "o", color=QUERY, ms=4)
    for start in np.arange(0, curve_offsets[-1], period):
        ax.axvline(start, color=KEY, lw=0.6, ls=":")
    ax.axhline(0, color=MUTED, lw=0.5)
    ax.set_xlabel("offset Δ = n − m (positions)")
    ax.set_ylabel("score s(Δ)")
    return fig


def clock_faces(n_positions: int, thetas, titles, highlight=()):
    """Positions ``0..n_positions-1`` placed on the circle at their angles :math:`m\\theta \\bmod 2\\pi`, one
    panel per hand; labels move outward by one ring per completed turn so that laps stay readable.
    Positions in ``highlight`` are drawn in the key colour."""
    fig, axes = plt.subplots(1, len(thetas), figsize=(3.5 * len(thetas), 3.7), constrained_layout=True,
                             subplot_kw={"projection": "polar"})
    positions = np.arange(n_positions)
    for ax, theta, title in zip(np.atleast_1d(axes), thetas, titles, strict=True):
        angles = positions * theta
        laps = np.floor(angles / (2 * np.pi))
        colors = [KEY if p in highlight else QUERY for p in positions]
        ax.scatter(angles, np.ones_like(angles), c=colors, s=22, zorder=3)
        ax.plot(np.linspace(0, 2 * np.pi, 200), np.ones(200), color=MUTED, lw=0.6)
        for p, a, lap in zip(positions, angles, laps, strict=True):
            ax.annotate(str(p), xy=(a, 1.22 + 0.22 * lap), ha="center", va="center", fontsize=7.5,
                        color=KEY if p in highlight else INK)
        ax.set_ylim(0, 1.4 + 0.22 * laps.max())
        ax.set_yticks([])
        ax.grid(color=MUTED, lw=0.3)
        ax.set_xticks(np.radians([0, 90, 180, 270]), ["0", "π/2", "π", "3π/2"])
        ax.spines["polar"].set_visible(False)
        ax.set_title(title, pad=16)
    return fig


def clock_separation(offsets, one_hand, whole_clock):
    """Distance between the readings of two positions ``offsets`` apart: one fast hand alone, against the
    whole clock, on a logarithmic offset axis."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    ax.semilogx(offsets, one_hand, color=MUTED, lw=0.6, label="fast hand alone, θ = 1")
    ax.semilogx(offsets, whole_clock, color=QUERY, lw=0.8, label="whole clock, d = 64")
    best = int(np.argmin(whole_clock))
    ax.plot(offsets[best], whole_clock[best], "o", color=KEY, ms=5, label="closest pair, whole clock")
    ax.set_xlabel("offset Δ between two positions (positions, log scale)")
    ax.set_ylabel("clock distance (radians)")
    ax.legend(loc="upper left", fontsize=8.5, ncols=3)
    return fig


# Chapters 8 and 9: serving and stretching RoPE (the base, context extension, precision, ALiBi, long-term decay).


def base_wavelengths(wavelengths: dict[str, np.ndarray], contexts: dict[str, int]):
    """Wavelength of every hand (positions per full turn, log scale) for each base in ``wavelengths``,
    with a dotted horizontal line at each context length in ``contexts`` (label: tokens)."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    for (label, values), colour in zip(wavelengths.items(), PALETTE, strict=False):
        ax.semilogy(np.arange(len(values)), values, "o", markersize=3.5, color=colour, label=label)
    for label, length in contexts.items():
        ax.axhline(length, color=MUTED, linestyle=":", linewidth=0.9)
        ax.text(0, length * 1.15, label, color=INK, fontsize=8.5, va="bottom")
    ax.set_xlabel("hand j")
    ax.set_ylabel(r"wavelength $2\pi/\theta_j$ (positions)")
    ax.legend(loc="lower right")
    return fig


def scaled_ladders(theta: np.ndarray, ladders: dict[str, np.ndarray]):
    """One small panel per method: its ladder :math:`\\theta'_j` (colour) over the original
    :math:`\\theta_j` (grey), radians per position on a log scale against the hand index."""
    fig, axes = plt.subplots(1, len(ladders), figsize=(7.4, 2.6), sharey=True, constrained_layout=True)
    hands = np.arange(len(theta))
    for ax, (name, scaled), colour in zip(axes, ladders.items(), PALETTE, strict=False):
        ax.semilogy(hands, theta, color=MUTED, linewidth=2.2, label="original")
        ax.semilogy(hands, scaled, color=colour, linewidth=1.4, label="scaled")
        ax.set_title(name)
        ax.set_xlabel("hand j")
    axes[0].set_ylabel(r"$\theta_j$ (radians per position)")
    axes[0].legend(loc="lower left", fontsize=8)
    return fig


def scaling_ratios(turns: np.ndarray, ratios: dict[str, np.ndarray], factor: float):
    """How much each method slows each hand, :math:`\\theta'_j/\\theta_j`, against the number of turns the
    hand makes over the training context, :math:`r_j = L_0/\\lambda_j` (log scale, fast hands on the right)."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    for (name, ratio), colour in zip(ratios.items(), PALETTE, strict=False):
        ax.semilogx(turns, ratio, marker="o", markersize=2.5, linewidth=1.2, color=colour, label=name)
    ax.axvline(1.0, color=MUTED, linestyle=":", linewidth=0.9)
    ax.set_yscale("log", base=2)
    ax.set_ylim(0.8 / factor, 1.25)
    ax.set_xlabel(r"turns over the training context, $r_j = L_0/\lambda_j$")
    ax.set_ylabel(r"$\theta'_j\,/\,\theta_j$")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8.5)
    return fig


def angle_errors(positions: np.ndarray, errors: dict[str, np.ndarray]):
    """Largest error of :math:`\\cos(m\\theta_j)` over the hands and over all positions up to :math:`m`,
    against :math:`m`, one curve per precision (log scales; errors below 1e-10 drawn at the bottom)."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    floor = 1e-10
    for (name, error), colour in zip(errors.items(), PALETTE, strict=False):
        worst_so_far = np.maximum.accumulate(np.maximum(error, floor))
        ax.loglog(positions, worst_so_far, linewidth=1.4, color=colour, label=name)
    ax.set_ylim(floor, 10)
    ax.set_xlabel("position m")
    ax.set_ylabel(r"largest error of $\cos(m\theta_j)$ so far")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8.5)
    return fig


def alibi_heads(bias: np.ndarray, slopes: np.ndarray, heads):
    """Causal ALiBi biases of a few heads side by side (the masked upper triangle left blank)."""
    fig, axes = plt.subplots(1, len(heads), figsize=(7.2, 2.5), constrained_layout=True)
    causal = np.tril(np.ones(bias.shape[1:], dtype=bool))
    limit = float(np.max(np.abs(bias[list(heads)])))
    for ax, h in zip(axes, heads, strict=True):
        image = ax.imshow(np.where(causal, bias[h], np.nan), cmap="Blues_r", vmin=-limit, vmax=0,
                          interpolation="nearest")
        ax.set_title(f"head {h + 1}: slope {slopes[h]:g}")
        ax.set_xlabel("key n")
        ax.spines[["left", "bottom"]].set_visible(False)
    axes[0].set_ylabel("query m")
    fig.colorbar(image, ax=axes, fraction=0.04, pad=0.02, label="bias")
    return fig


def decay_curves(distances: np.ndarray, curves: dict[str, np.ndarray], octaves: dict[str, tuple], level: float):
    """RoFormer's relative bound over the distance (thin lines, log x), the mean over each octave of
    distances (steps, ``octaves`` maps a label to ``(edges, means)``) and the random-walk level."""
    fig, ax = plt.subplots(figsize=(7.0, 3.1), constrained_layout=True)
    for (label, values), colour in zip(curves.items(), PALETTE, strict=False):
        edges, means = octaves[label]
        ax.semilogx(distances, values, linewidth=0.5, alpha=0.45, color=colour)
        ax.stairs(means, edges, baseline=None, linewidth=2.0, color=colour, label=f"{label} (octave mean)")
    ax.axhline(level, color=INK, linestyle="--", linewidth=0.9, label="random-walk level")
    ax.set_xlabel("relative distance r (positions)")
    ax.set_ylabel(r"mean over $j$ of $|S_j(r)|$")
    ax.legend(loc="upper right", fontsize=8.5)
    return fig


# --- Chapter 10, the family: T5's buckets, xPos's decay ---


def t5_buckets(offsets: np.ndarray, buckets: dict[str, np.ndarray], max_distance: int):
    """T5's bucket against the offset n - m, one step line per configuration in ``buckets``, with dotted
    lines where the distance reaches ``max_distance`` on either side."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    for (label, values), colour in zip(buckets.items(), PALETTE, strict=False):
        ax.step(offsets, values, where="mid", linewidth=1.4, color=colour, label=label)
    for edge in (-max_distance, max_distance):
        ax.axvline(edge, color=MUTED, linestyle=":", linewidth=0.9)
    ax.set_xlabel("offset n - m (key minus query)")
    ax.set_ylabel("bucket")
    ax.legend(loc="center right", fontsize=8.5)
    return fig


def xpos_factors(distances: np.ndarray, factors: np.ndarray, hands):
    """xPos's factor on the score of pair j, zeta_j^(distance/kappa), against the distance m - n of the key
    behind the query, for the pairs ``hands`` (rows of ``factors``; log y)."""
    fig, ax = plt.subplots(figsize=(7.0, 3.0), constrained_layout=True)
    for j, colour in zip(hands, PALETTE, strict=False):
        ax.semilogy(distances, factors[j], linewidth=1.4, color=colour, label=f"pair j = {j}")
    ax.set_xlabel("distance m - n (positions the key lies behind the query)")
    ax.set_ylabel(r"factor $\zeta_j^{(m-n)/\kappa}$")
    ax.legend(loc="lower left", fontsize=8.5)
    return fig


# ---- Chapter 9's experiment: accuracy against the evaluation length ----


def extrapolation_curves(lengths, accuracy: dict[str, np.ndarray], order_blind: np.ndarray, chance: float,
                         train_length: int):
    """Accuracy of every method (``accuracy`` maps a name to one value per length) against the evaluation
    length (log scale), with the order-blind guess (dashed), chance (dotted) and the training length."""
    fig, ax = plt.subplots(figsize=(7.0, 3.3), constrained_layout=True)
    colours = [*PALETTE, "#17becf", "#e377c2"]
    markers = "osD^v<>p"
    for (name, values), colour, marker in zip(accuracy.items(), colours, markers, strict=False):
        ax.plot(lengths, 100 * np.asarray(values), marker=marker, markersize=4.5, linewidth=1.3, color=colour,
                label=name)
    ax.plot(lengths, 100 * np.asarray(order_blind), color=INK, linestyle="--", linewidth=0.9,
            label="best order-blind guess")
    ax.axhline(100 * chance, color=MUTED, linestyle=":", linewidth=0.9, label="chance")
    ax.axvline(train_length, color=MUTED, linewidth=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xticks(list(lengths), [str(n) for n in lengths])
    ax.set_ylim(0, 105)
    ax.set_xlabel("evaluation length (tokens, log scale; grey line: training length)")
    ax.set_ylabel("tokens copied correctly (%)")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8.5)
    return fig


# Chapter 6, weights and the Fourier view: the softmax weights over offsets, a profile fitted by a head.


def offset_weights(offsets, weights: dict[str, np.ndarray], *, mark: int | None = None):
    """Softmax weights of the last query against each offset, one panel (a bar per offset) per choice of
    ``(q, k)``; the offset ``mark`` is drawn in the key colour."""
    fig, axes = plt.subplots(1, len(weights), figsize=(3.0 * len(weights), 2.8), sharey=True,
                             constrained_layout=True)
    for ax, (title, values) in zip(np.atleast_1d(axes), weights.items(), strict=True):
        colors = [KEY if o == mark else QUERY for o in offsets]
        ax.bar(offsets, values, color=colors, width=0.8)
        ax.set_title(title)
        ax.set_xlabel("offset Δ = n − m")
    np.atleast_1d(axes)[0].set_ylabel("weight a_Δ")
    return fig


def fitted_profile(offsets, target, curve_offsets, curve, reached):
    """A target score profile at whole offsets (dots), its least-squares trigonometric polynomial drawn
    between them (line) and the scores of the head that reaches it (crosses)."""
    fig, ax = plt.subplots(figsize=(7.0, 2.8), constrained_layout=True)
    ax.plot(offsets, target, "o", color=MUTED, ms=5, label="target")
    ax.plot(curve_offsets, curve, color=QUERY, lw=1.2, label="least-squares fit")
    ax.plot(offsets, reached, "x", color=KEY, ms=5, label="scores of the head")
    ax.axhline(0, color=MUTED, lw=0.5)
    ax.set_xlabel("offset Δ = n − m (positions)")
    ax.set_ylabel("score s(Δ)")
    ax.legend(loc="upper left")
    return fig
