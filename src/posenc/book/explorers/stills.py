r"""Still pictures of the explorers, for the editions that run no JavaScript (the PDF, notebook viewers).

Each ``*_still(explorer)`` draws what that explorer shows on the page in its current state -- the same
panels, colours and readouts -- with matplotlib, from the explorer's own Python methods (``readouts()``,
``similarity_curve()``, ...), so a still and the live page show the same numbers. :func:`still_png` renders
one as PNG bytes for the widget's display bundle, next to the widget view: a page with a widget manager
shows the widget, the PDF builder (which cannot show a widget) takes the PNG.

No pyplot state is touched: figures are made with :class:`matplotlib.figure.Figure` and rendered by the Agg
canvas, so displaying an explorer in a kernel with the inline backend adds no stray figure.
"""

from __future__ import annotations

from io import BytesIO

import matplotlib as mpl
import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Rectangle

from posenc.sinusoidal import frequencies, sinusoidal_table

from ..style import STYLE, heatmap

# The colours of common.js, so that the still looks like the explorer on the page.
QUERY, KEY, INK, GRID, OTHER = "#b3450b", "#1f5fa8", "#1d1d1d", "#c8c8c8", "#6b6b6b"
DPI = 150


def fmt(x: float, digits: int = 3) -> str:
    """``x`` with ``digits`` decimals and a true minus sign (``fmt`` of common.js)."""
    text = f"{x:.{digits}f}"
    if text.startswith("-"):
        return text[1:] if float(text) == 0 else "\u2212" + text[1:]
    return text


def _pair(values) -> str:
    return f"({fmt(values[0])}, {fmt(values[1])})"


def still_png(figure: Figure) -> bytes:
    """The PNG bytes of ``figure``, rendered off-screen (by the Agg canvas) at :data:`DPI` dots per inch."""
    buffer = BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI)
    return buffer.getvalue()


def _figure(title: str, panels: int, rows: list[tuple[str, str]]) -> tuple[Figure, list]:
    """A figure titled ``title`` with ``panels`` drawing areas side by side and, below them, the
    explorer's readouts in two columns (``label: value``); returns the figure and the drawing axes."""
    lines = (len(rows) + 1) // 2
    with mpl.rc_context(STYLE):
        figure = Figure(figsize=(7.2, 2.9 + 0.22 * lines), layout="constrained")
        grid = figure.add_gridspec(2, panels, height_ratios=[2.9, 0.22 * lines])
        axes = [figure.add_subplot(grid[0, column]) for column in range(panels)]
        table = figure.add_subplot(grid[1, :])
    figure.suptitle(title, x=0.01, ha="left", fontsize=11, fontweight="bold", color=INK)
    table.set_axis_off()
    for index, (label, value) in enumerate(rows):
        x, y = 0.5 * (index // lines), 1 - (index % lines + 0.5) / lines
        table.text(x, y, f"{label}: ", ha="left", va="center", fontsize=8.5, color=OTHER,
                   transform=table.transAxes)
        table.annotate(value, xy=(1, 0.5), xycoords=table.texts[-1], ha="left", va="center", fontsize=8.5,
                       color=INK)
    return figure, axes


def _arrow(ax, tip, color: str, *, dashed: bool, label: str = "") -> None:
    ax.annotate("", xy=tip, xytext=(0, 0), arrowprops={
        "arrowstyle": "-|>", "color": color, "lw": 1.6, "linestyle": "--" if dashed else "-",
        "shrinkA": 0, "shrinkB": 0, "mutation_scale": 11, "fill": not dashed})
    if label:
        x, y = tip
        r = float(np.hypot(x, y)) or 1.0
        ax.text(x + 0.14 * x / r, y + 0.14 * y / r, label, color=color, fontweight="bold", ha="center",
                va="center")


def _plane(ax, limit: float) -> None:
    ax.add_patch(Circle((0, 0), 1, fill=False, color=GRID, lw=1))
    ax.axhline(0, color=GRID, lw=0.6)
    ax.axvline(0, color=GRID, lw=0.6)
    ax.set(xlim=(-limit, limit), ylim=(-limit, limit), aspect="equal", xticks=[], yticks=[])
    ax.spines[:].set_visible(False)


def sinusoidal_still(explorer) -> Figure:
    """The sinusoidal explorer: the table as a heatmap with row ``position`` and column ``dimension``
    outlined, the similarity of ``position`` to every row, and the readouts."""
    d, n, p, i = explorer.d_model, explorer.n_positions, explorer.position, explorer.dimension
    readouts = explorer.readouts()
    neighbour, neighbour_similarity = readouts["similarity_neighbour"]
    j, wavelength = i // 2, readouts["wavelength"]
    figure, (heat, chart) = _figure(f"The sinusoidal table (d_model = {d}, position p = {p}, dimension {i})", 2, [
        ("frequency", f"θ_{j} = {fmt(readouts['theta'], 6)} rad per position"),
        ("entry of PE(p)", f"{'sin' if i % 2 == 0 else 'cos'}({p}·θ_{j}) = {fmt(readouts['value'])}"),
        ("wavelength 2π/θ", f"{fmt(wavelength, 2)} positions" if wavelength < 100 else f"{wavelength:,.0f} positions"),
        (f"similarity of {p} to {neighbour}", fmt(neighbour_similarity)),
    ])
    heatmap(heat, sinusoidal_table(n, d, explorer.base), title="the table PE: blue −1, red +1", limit=1.0)
    heat.title.set_fontsize(9)
    heat.add_patch(Rectangle((i - 0.5, -0.5), 1, n, fill=False, color=INK, lw=1.2))
    heat.add_patch(Rectangle((-0.5, p - 0.5), d, 1, fill=False, color=INK, lw=1.2))
    heat.set(xlabel="dimension", ylabel="position n")
    curve = explorer.similarity_curve()
    chart.axhline(0, color=GRID, lw=0.6)
    chart.plot(np.arange(n), curve, color=KEY, lw=1.8)
    chart.plot([neighbour], [curve[neighbour]], "o", mfc="none", mec=QUERY, mew=1.6)
    chart.plot([p], [curve[p]], "o", color=QUERY)
    chart.set(ylim=(-1.05, 1.05), xlabel="position n", ylabel="similarity to p")
    chart.set_title(f"PE({p})·PE(n) / (d/2) for every n", fontsize=9)
    return figure


def rope_still(explorer) -> Figure:
    """The RoPE explorer: pair ``pair`` of the query and the key before (dashed) and after (solid) rotation
    by :math:`m\\theta_j` and :math:`n\\theta_j`, and the readouts."""
    readouts = explorer.readouts()
    m, n, j = explorer.m, explorer.n, explorer.pair
    title = f"Rotary position embedding (query position m = {m}, key position n = {n}, pair j = {j})"
    figure, (plane,) = _figure(title, 1, [
        ("frequency θ_j", f"{fmt(readouts['theta'], 6)} rad per position"),
        ("query turns by m·θ_j", f"{fmt(readouts['angle_q'])} rad"),
        ("key turns by n·θ_j", f"{fmt(readouts['angle_k'])} rad"),
        ("offset n − m", str(readouts["offset"]).replace("-", "\u2212")),
        ("pair j of q", f"{_pair(readouts['q_before'])} → {_pair(readouts['q_after'])}"),
        ("pair j of k", f"{_pair(readouts['k_before'])} → {_pair(readouts['k_after'])}"),
        ("pair j dot product", fmt(readouts["pair_dot"])),
        ("full q·k (all dimensions)", fmt(readouts["full_dot"])),
    ])
    _plane(plane, 1.3)
    radius = max(float(np.hypot(*readouts["q_before"])), float(np.hypot(*readouts["k_before"])), 1e-12)
    for name, color in (("q", QUERY), ("k", KEY)):
        _arrow(plane, np.asarray(readouts[f"{name}_before"]) / radius, color, dashed=True)
        _arrow(plane, np.asarray(readouts[f"{name}_after"]) / radius, color, dashed=False, label=name)
    plane.set_title(f"pair {j} in the plane. Dashed: before rotation. Solid: after.", fontsize=9)
    return figure


def _dial(ax, theta: float, count: int, p: int, near: int) -> None:
    """Positions ``0 .. count-1`` on one hand at the angles :math:`n\\theta`, the radius growing with
    :math:`n` only to keep the labels apart; ``p`` and its nearest position ``near`` highlighted."""
    _plane(ax, 1.3)
    for q, color, style in ((near, KEY, "--"), (p, QUERY, "-")):
        ax.plot([0, 1.08 * np.cos(q * theta)], [0, 1.08 * np.sin(q * theta)], color=color, ls=style, lw=1.4)
    for q in range(count):
        radius = 0.42 + 0.58 * q / max(count - 1, 1)
        x, y = radius * np.cos(q * theta), radius * np.sin(q * theta)
        special = q in (p, near)
        color = QUERY if q == p else KEY if q == near else OTHER
        ax.plot([x], [y], "o", color=color, ms=5 if special else 3)
        if count <= 24 or special or q % 8 == 0:
            ax.text(x * (1 + 0.13 / radius), y * (1 + 0.13 / radius), str(q), ha="center", va="center",
                    fontsize=8 if special else 6.5, color=color if special else INK)


def _hands(ax, ladder: np.ndarray, p: int, hand: int) -> None:
    """All hands at position ``p``, hand 0 longest; the chosen ``hand`` in black."""
    _plane(ax, 1.15)
    last = max(len(ladder) - 1, 1)
    for j, theta in enumerate(ladder):
        if j != hand:
            length = 1 - 0.65 * j / last
            ax.plot([0, length * np.cos(p * theta)], [0, length * np.sin(p * theta)],
                    color=QUERY if j / last < 0.5 else KEY, alpha=0.35 + 0.5 * (1 - j / last), lw=1.2)
    length = 1 - 0.65 * hand / last
    ax.plot([0, length * np.cos(p * ladder[hand])], [0, length * np.sin(p * ladder[hand])], color=INK, lw=2.6)
    ax.plot([0], [0], "o", color=INK, ms=4)


def clock_still(explorer) -> Figure:
    """The clock explorer: the positions on the chosen hand, all hands at ``position``, the verdict on
    aliasing and the readouts."""
    readouts = explorer.readouts()
    j, p, count = explorer.hand, explorer.position, explorer.n_positions
    ladder = frequencies(explorer.d, explorer.base)
    near, gap = readouts["nearest_on_hand"]
    near_all, distance = readouts["nearest_on_clock"]
    title = f"A clock with many hands (hand j = {j}, position p = {p}, positions 0 to {count - 1} shown)"
    figure, (dial, clock) = _figure(title, 2, [
        (f"speed θ_{j} of this hand", f"{fmt(readouts['theta'], 6)} rad per position"),
        (f"one full turn 2π/θ_{j}", f"{fmt(readouts['period'], 2)} positions"),
        ("angle of p on this hand", f"{fmt(readouts['angle'])} rad"),
        ("nearest position on this hand", f"{near} ({fmt(gap)} rad apart)"),
        ("nearest position on all hands", f"{near_all} (distance {fmt(distance)})"),
        ("aliasing on this hand", f"yes: {near} lands closer to {p} than a neighbour" if explorer.aliased
         else "no: the nearest position is a neighbour"),
    ])
    _dial(dial, float(ladder[j]), count, p, near)
    dial.set_title(f"hand {j}: position n sits at the angle n·θ_{j}", fontsize=9)
    _hands(clock, ladder, p, j)
    clock.set_title(f"all {len(ladder)} hands at position {p}; hand {j} in black", fontsize=9)
    return figure
