r"""Interactive explorers: the sinusoidal table, RoPE in one plane, and the clock of many hands.

Each explorer is an `anywidget <https://anywidget.dev>`_ widget. Its JavaScript (``*.js`` beside this
file) travels inside the widget's state, so the same object

- is an ordinary ipywidget in a live kernel (Jupyter, Colab, Binder): its traits sync both ways, and
  setting ``explorer.m = 7`` in Python moves the slider on the page; and
- keeps working on the book's static website, where no kernel runs: the page's widget manager loads the
  embedded state and the JavaScript recomputes every readout and drawing from it; and
- shows as a still picture of its current state where no widget can run (the PDF edition, a notebook
  viewer): its display bundle carries a PNG (:mod:`posenc.book.explorers.stills`) beside the widget view, which
  every widget-aware front end prefers.

The JavaScript computes from the widget's state alone, with the formulas of :mod:`posenc.sinusoidal`
and :mod:`posenc.rotary`: the ladder :math:`\theta_j = \text{base}^{-2j/d}`, the table
:math:`\mathrm{PE}`, the rotations :math:`\Theta_m` and dot products. Each explorer's :meth:`readouts`
computes the same numbers with the package's functions, so a test can read the page and compare.

In a chapter, make the explorer the last expression of a cell (``RopeExplorer()``) and pair it with "Try
this" prompts. The build stores every widget a notebook creates in the page, shown or not (about 16 kB
each, mostly the JavaScript), so create only the explorers you show; take other numbers from posenc.
"""

from __future__ import annotations

from binascii import b2a_base64
from pathlib import Path

import anywidget
import numpy as np
import traitlets as t

from posenc.clock import angular_distance, hand_periods, offset_distance, wrapped_angles
from posenc.rotary import apply_rope
from posenc.sinusoidal import frequencies, position_vectors, similarity, wavelengths

from .stills import clock_still, rope_still, sinusoidal_still, still_png

__all__ = ["SinusoidalExplorer", "RopeExplorer", "ClockExplorer", "EXPLORERS"]

_HERE = Path(__file__).resolve().parent
D_MODELS = (16, 64, 128)


def _module(name: str) -> str:
    """The ES module of one explorer: the shared helpers in ``common.js`` followed by ``name.js``."""
    return "\n".join((_HERE / f"{part}.js").read_text(encoding="utf-8") for part in ("common", name))


def _check_range(explorer, proposal, ranges: dict[str, tuple[int, int]]) -> int:
    """The proposed value of a trait if it lies in its range ``ranges[name] = (low, high)``, else a TraitError
    that names the explorer, the trait and the range."""
    name, value = proposal["trait"].name, proposal["value"]
    low, high = ranges[name]
    if not low <= value <= high:
        raise t.TraitError(f"{type(explorer).__name__}: {name} must be between {low} and {high}, got {value}")
    return value


def _nearest(values: np.ndarray, skip: int) -> int:
    """The smallest index (other than ``skip``) whose value is within 1e-9 of the smallest such value."""
    others = np.delete(np.arange(len(values)), skip)
    best = values[others].min()
    return int(others[values[others] <= best + 1e-9][0])


class _Explorer(anywidget.AnyWidget):
    """What every explorer shares: a display bundle with a still PNG of the current state beside the widget, and
    the check of ``d`` where an explorer has one. Each explorer's ``still()`` (a function of
    :mod:`posenc.book.explorers.stills`) draws its current state as a matplotlib figure."""

    _css = (_HERE / "explorers.css").read_text(encoding="utf-8")

    def _repr_mimebundle_(self, **kwargs):
        """anywidget's bundle (``text/plain`` and the widget view) plus ``image/png``: ``still()``."""
        data, metadata = super()._repr_mimebundle_(**kwargs)
        data["image/png"] = b2a_base64(still_png(self.still()), newline=False).decode("ascii")
        return data, metadata

    @t.validate("d")
    def _valid_d(self, proposal):
        d = proposal["value"]
        if d < 2 or d % 2:
            raise t.TraitError(f"{type(self).__name__}: d must be even and at least 2 (dimensions come in pairs), "
                               f"got {d}")
        return d


class SinusoidalExplorer(_Explorer):
    r"""The sinusoidal table as a heatmap, one dimension's wavelength, and the similarity of one position to all.

    Traits (synced with the page): ``d_model`` (16, 64 or 128), ``position`` :math:`p`, ``dimension``
    :math:`i`, ``n_positions`` (rows of the table) and ``base``. The chart shows

    .. math:: s_p(q) = \frac{\mathrm{PE}(p)\cdot\mathrm{PE}(q)}{d/2} = \frac{2}{d}\sum_j \cos\big(\theta_j (p - q)\big),

    which is 1 at :math:`q = p` and depends on :math:`p - q` only, so moving :math:`p` slides the curve.
    """

    _esm = _module("sinusoidal")
    still = sinusoidal_still
    d_model = t.Int(64).tag(sync=True)
    position = t.Int(12).tag(sync=True)
    dimension = t.Int(0).tag(sync=True)
    n_positions = t.Int(48).tag(sync=True)
    base = t.Float(10000.0).tag(sync=True)

    @t.validate("d_model")
    def _valid_d_model(self, proposal):
        if proposal["value"] not in D_MODELS:
            raise t.TraitError(f"SinusoidalExplorer: d_model must be one of {D_MODELS}, got {proposal['value']}")
        return proposal["value"]

    @t.observe("d_model")
    def _keep_dimension_inside(self, change):
        self.dimension = min(self.dimension, change["new"] - 1)

    @t.validate("n_positions", "position", "dimension")
    def _in_range(self, proposal):
        return _check_range(self, proposal, {"n_positions": (2, 256), "position": (0, self.n_positions - 1),
                                             "dimension": (0, self.d_model - 1)})

    def similarity_curve(self) -> np.ndarray:
        """The chart: :math:`s_p(q)` for ``q = 0 .. n_positions - 1``, shape ``(n_positions,)``."""
        q = np.arange(self.n_positions)
        return similarity(self.position, q, self.d_model, self.base) / (self.d_model / 2)

    def readouts(self) -> dict[str, float | list]:
        r"""The numbers the page shows: :math:`\theta_{\lfloor i/2 \rfloor}`, its wavelength
        :math:`2\pi/\theta`, the entry :math:`\mathrm{PE}(p)_i`, and ``[q, s_p(q)]`` for the next position
        :math:`q = p + 1` (or :math:`p - 1` on the last row)."""
        j = self.dimension // 2
        p = self.position
        neighbour = p + 1 if p < self.n_positions - 1 else p - 1
        return {
            "theta": float(frequencies(self.d_model, self.base)[j]),
            "wavelength": float(wavelengths(self.d_model, self.base)[j]),
            "value": float(position_vectors([p], self.d_model, self.base)[0, self.dimension]),
            "similarity_neighbour": [neighbour, float(self.similarity_curve()[neighbour])],
        }


class RopeExplorer(_Explorer):
    r"""RoPE on one pair of a query and a key: positions ``m`` and ``n``, pair ``pair``, "Both +1" and "Both +5".

    Pair :math:`j` of ``q`` turns by :math:`m\theta_j` and pair :math:`j` of ``k`` by :math:`n\theta_j`.
    Both the pair's dot product and the full score :math:`(\Theta_m q)\cdot(\Theta_n k) = q^\top\Theta_{n-m}k`
    depend on the positions only through :math:`n - m`, so moving both by the same amount changes neither.

    ``q`` and ``k`` default to fixed random content vectors of length ``d`` (seed 2021, rounded to 3 decimals).
    """

    _esm = _module("rope")
    still = rope_still
    d = t.Int(64).tag(sync=True)
    base = t.Float(10000.0).tag(sync=True)
    q = t.List(t.Float()).tag(sync=True)
    k = t.List(t.Float()).tag(sync=True)
    m = t.Int(4).tag(sync=True)
    n = t.Int(1).tag(sync=True)
    pair = t.Int(0).tag(sync=True)
    max_position = t.Int(100).tag(sync=True)

    def _content(self, which: int) -> list[float]:
        """Row ``which`` of a fixed random (2, d) array: the default content of q (0) and k (1)."""
        rng = np.random.default_rng(2021)
        return np.round(rng.standard_normal((2, self.d)), 3)[which].tolist()

    @t.default("q")
    def _default_q(self):
        return self._content(0)

    @t.default("k")
    def _default_k(self):
        return self._content(1)

    @t.validate("q", "k")
    def _valid_vector(self, proposal):
        name, value = proposal["trait"].name, proposal["value"]
        if len(value) != self.d:
            raise t.TraitError(f"RopeExplorer: {name} must have d={self.d} entries, got {len(value)}")
        return value

    @t.validate("m", "n", "pair")
    def _in_range(self, proposal):
        return _check_range(self, proposal, {"m": (0, self.max_position), "n": (0, self.max_position),
                                             "pair": (0, self.d // 2 - 1)})

    def readouts(self) -> dict[str, float | list]:
        r"""The numbers the page shows, from :func:`posenc.rotary.apply_rope`: :math:`\theta_j`, the angles
        :math:`m\theta_j` and :math:`n\theta_j`, the offset :math:`n - m`, pair :math:`j` of ``q`` and ``k``
        before and after rotation, the pair's dot product and the full :math:`(\Theta_m q)\cdot(\Theta_n k)`."""
        q, k = np.asarray(self.q), np.asarray(self.k)
        q_rot = apply_rope(q[None], [self.m], base=self.base)[0]
        k_rot = apply_rope(k[None], [self.n], base=self.base)[0]
        pair = slice(2 * self.pair, 2 * self.pair + 2)
        theta = float(frequencies(self.d, self.base)[self.pair])
        return {
            "theta": theta,
            "angle_q": self.m * theta,
            "angle_k": self.n * theta,
            "offset": self.n - self.m,
            "q_before": q[pair].tolist(),
            "k_before": k[pair].tolist(),
            "q_after": q_rot[pair].tolist(),
            "k_after": k_rot[pair].tolist(),
            "pair_dot": float(q_rot[pair] @ k_rot[pair]),
            "full_dot": float(q_rot @ k_rot),
        }


class ClockExplorer(_Explorer):
    r"""RoPE's clock: ``d/2`` hands, hand :math:`j` turning :math:`\theta_j` radians per position.

    Position :math:`q` sits on hand :math:`j` at the angle :math:`q\theta_j`. Two positions whose angles
    differ by almost a whole turn land together on that hand (aliasing: on hand 0, positions 0 and 6,
    since :math:`6 \approx 2\pi`), while the distance over all hands, :math:`D(p, q)` of
    :mod:`posenc.clock`, keeps them apart.
    """

    _esm = _module("clock")
    still = clock_still
    d = t.Int(64).tag(sync=True)
    base = t.Float(10000.0).tag(sync=True)
    hand = t.Int(0).tag(sync=True)
    position = t.Int(0).tag(sync=True)
    n_positions = t.Int(16).tag(sync=True)

    @t.validate("hand", "n_positions", "position")
    def _in_range(self, proposal):
        return _check_range(self, proposal, {"hand": (0, self.d // 2 - 1), "n_positions": (2, 64),
                                             "position": (0, self.n_positions - 1)})

    @t.observe("n_positions")
    def _keep_position_inside(self, change):
        self.position = min(self.position, change["new"] - 1)

    @property
    def aliased(self) -> bool:
        """Whether, on the chosen hand, the position nearest to ``position`` is not one of its neighbours."""
        return abs(self.readouts()["nearest_on_hand"][0] - self.position) != 1

    def readouts(self) -> dict[str, float | list]:
        r"""The numbers the page shows: :math:`\theta_j`, its period :math:`2\pi/\theta_j`, the reading
        :math:`p\theta_j \bmod 2\pi` of hand :math:`j`, and ``[q, gap]`` for the nearest other position on
        this hand (:func:`posenc.clock.angular_distance`) and ``[q, distance]`` for the nearest over all hands
        (:func:`posenc.clock.offset_distance`)."""
        theta = float(frequencies(self.d, self.base)[self.hand])
        offsets = np.arange(self.n_positions) - self.position
        gaps, distances = angular_distance(offsets * theta, 0.0), offset_distance(offsets, self.d, self.base)
        near, near_all = _nearest(gaps, self.position), _nearest(distances, self.position)
        return {
            "theta": theta,
            "period": float(hand_periods(self.d, self.base)[self.hand]),
            "angle": float(wrapped_angles([self.position], theta)[0]),
            "nearest_on_hand": [near, float(gaps[near])],
            "nearest_on_clock": [near_all, float(distances[near_all])],
        }


EXPLORERS: dict[str, type[anywidget.AnyWidget]] = {
    "sinusoidal": SinusoidalExplorer,
    "rope": RopeExplorer,
    "clock": ClockExplorer,
}
