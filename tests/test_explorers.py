"""The explorers' Python side: the mathematics their readouts show, their traits, and the JavaScript they ship.

In a live kernel an explorer is an ordinary widget whose ``readouts()`` are computed with posenc; on the
static site the same numbers come from its JavaScript, compared with these after every control in
tests/browser/test_site_explorers.py.
"""

from __future__ import annotations

import base64
import struct

import numpy as np
import pytest
import traitlets
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc.book.explorers import EXPLORERS, ClockExplorer, RopeExplorer, SinusoidalExplorer
from posenc.clock import hand_periods
from posenc.rotary import rope_matrix
from posenc.sinusoidal import frequencies, position_vectors, wavelengths

positions = st.integers(0, 90)


@given(m=positions, pair=st.integers(0, 31))
def test_rope_explorer_turns_each_pair_by_its_angle(m, pair):
    explorer = RopeExplorer(m=m, pair=pair)
    readouts = explorer.readouts()
    turned = rope_matrix(m, 64) @ np.asarray(explorer.q)
    np.testing.assert_allclose(readouts["q_after"], turned[2 * pair : 2 * pair + 2], atol=1e-12)
    assert readouts["angle_q"] == pytest.approx(m * frequencies(64)[pair])
    assert np.linalg.norm(readouts["q_after"]) == pytest.approx(np.linalg.norm(readouts["q_before"]))


def test_rope_explorer_takes_both_plus_five_from_the_page_as_a_live_widget():
    explorer = RopeExplorer(m=4, n=1)
    before = explorer.readouts()
    explorer.set_state({"m": 9, "n": 6})  # what the page's "Both +5" sends to the kernel
    after = explorer.readouts()
    assert (explorer.m, explorer.n) == (9, 6)
    assert after["full_dot"] == pytest.approx(before["full_dot"], abs=1e-12)
    with pytest.raises(traitlets.TraitError, match="m must be between 0 and 100, got 101"):
        explorer.set_state({"m": 101})


def test_rope_explorer_content_is_fixed():
    assert RopeExplorer().q == RopeExplorer().q
    assert len(RopeExplorer(d=16).k) == 16


@given(dimension=st.integers(0, 127), p=st.integers(0, 47))
def test_sinusoidal_readouts_are_the_table_entry_and_its_wavelength(dimension, p):
    readouts = SinusoidalExplorer(d_model=128, dimension=dimension, position=p).readouts()
    assert readouts["wavelength"] == pytest.approx(wavelengths(128)[dimension // 2])
    assert readouts["wavelength"] == pytest.approx(2 * np.pi / readouts["theta"])
    assert readouts["value"] == position_vectors([p], 128)[0, dimension]


def test_sinusoidal_explorer_keeps_the_dimension_inside_a_smaller_d_model():
    explorer = SinusoidalExplorer(d_model=128, dimension=100)
    explorer.d_model = 16
    assert explorer.dimension == 15


@given(p=st.integers(0, 63), hand=st.integers(0, 31))
def test_clock_explorer_all_hands_keep_neighbours_nearest(p, hand):
    readouts = ClockExplorer(hand=hand, position=p, n_positions=64).readouts()
    assert abs(readouts["nearest_on_clock"][0] - p) == 1
    assert readouts["period"] == pytest.approx(hand_periods(64)[hand])
    assert 0 <= readouts["angle"] < 2 * np.pi


def test_clock_explorer_aliases_exactly_on_the_hands_that_lap_its_positions():
    """Chapter 7's Try this: a hand that laps the positions shown aliases position 0; a slower one aliases none."""
    explorer = ClockExplorer()  # one widget, moved: making one per hand and position costs seconds
    for hand, laps in enumerate(explorer.n_positions * frequencies(64) >= 2 * np.pi):
        explorer.hand = hand
        aliased = []
        for p in range(explorer.n_positions):
            explorer.position = p
            aliased.append(explorer.aliased)
        assert aliased[0] if laps else not any(aliased), hand


@pytest.mark.parametrize("kind", sorted(EXPLORERS))
def test_each_explorer_ships_its_javascript_and_style_in_the_widget_state(kind):
    cls = EXPLORERS[kind]
    state = cls().get_state()
    assert state["_anywidget_id"] == f"posenc.book.explorers.{cls.__name__}"  # how tests/test_site.py finds it
    assert "function frequencies(d, base)" in state["_esm"]
    assert state["_esm"].count("export default { render };") == 1
    assert ".posenc-explorer" in state["_css"]
    assert len(state["_esm"]) + len(state["_css"]) < 25_000, "keep each explorer's page weight small"


# The still picture in the display bundle (posenc.book.explorers.stills): the PDF edition shows it in place of
# the widget (tests/test_pdf.py), the site the widget (tests/browser).


@pytest.mark.parametrize("kind", sorted(EXPLORERS))
def test_each_explorer_displays_as_the_widget_with_a_still_png_beside_it(kind):
    import matplotlib.pyplot as plt

    explorer = EXPLORERS[kind]()
    figures_before = plt.get_fignums()
    data, _ = explorer._repr_mimebundle_()
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == explorer.model_id
    png = base64.b64decode(data["image/png"])
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) >= (900, 400)
    assert plt.get_fignums() == figures_before  # no stray figure under the inline backend


def still_texts(explorer) -> str:
    from matplotlib.text import Text

    return "\n".join(text.get_text() for text in explorer.still().findobj(Text))


@settings(max_examples=8)  # a still takes a few tenths of a second to draw
@given(m=positions, n=positions, pair=st.integers(0, 31))
def test_rope_still_shows_the_state_and_readouts_of_its_explorer(m, n, pair):
    from posenc.book.explorers.stills import fmt

    explorer = RopeExplorer(m=m, n=n, pair=pair)
    texts, readouts = still_texts(explorer), explorer.readouts()
    assert f"query position m = {m}, key position n = {n}, pair j = {pair}" in texts
    assert fmt(readouts["full_dot"]) in texts and fmt(readouts["pair_dot"]) in texts


def test_sinusoidal_and_clock_stills_show_their_readouts():
    from posenc.book.explorers.stills import fmt

    table = SinusoidalExplorer(d_model=16, position=5, dimension=3)
    assert fmt(table.readouts()["value"]) in still_texts(table)
    clock = ClockExplorer()  # hand 0: position 6 lands next to position 0
    texts = still_texts(clock)
    assert "6 (0.283 rad apart)" in texts and "yes: 6 lands closer to 0 than a neighbour" in texts
    assert "no: the nearest position is a neighbour" in still_texts(ClockExplorer(hand=5))


def test_fmt_writes_numbers_as_the_page_does():
    from posenc.book.explorers.stills import fmt

    assert [fmt(-0.5), fmt(-0.0001), fmt(2.0, 1), fmt(1e-7, 6)] == ["\u22120.500", "0.000", "2.0", "0.000000"]
