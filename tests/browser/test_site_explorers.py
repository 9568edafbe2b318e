"""Every posenc explorer on the site responds to input as the mathematics says, with no kernel behind it.

The page computes its readouts in JavaScript from the widget state (the exact values sit in each readout's
``data-value``); the tests compare them with posenc's for the same state. What the page draws (the curve, the
table, the buttons' limits, the aliasing mark) is one script per kind, checked on one copy of the kind.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest

from posenc.book.explorers import EXPLORERS
from posenc.sinusoidal import frequencies

pytestmark = pytest.mark.browser
EXPLORERS_PAGE = "appendix/explorers.html"  # holds one of every kind: the kinds' own tests use its copies

READOUTS = """(root) => Object.fromEntries([...root.querySelectorAll('output[data-readout]')]
  .map((o) => [o.dataset.readout, JSON.parse(o.dataset.value)]))"""
SET_VALUE = """(input, value) => { input.value = String(value);
  input.dispatchEvent(new Event('input', {bubbles: true})); }"""


class LiveExplorer:
    """One explorer on an open page: its controls, its state and its readouts."""

    def __init__(self, page, root, kind: str):
        self.page, self.root, self.kind = page, root, kind

    def state(self) -> dict:
        return json.loads(self.root.get_attribute("data-state"))

    def readouts(self) -> dict:
        return self.root.evaluate(READOUTS)

    def control(self, name: str):
        return self.root.locator(f'[data-control="{name}"]')

    def set(self, name: str, value: int) -> None:
        self.control(name).evaluate(SET_VALUE, value)

    def press(self, name: str, key: str = "ArrowRight") -> None:
        self.control(name).focus()
        self.page.keyboard.press(key)


@contextmanager
def opened(browser_site, page_path: str):
    """The explorers on the page ``page_path``, as drawn there."""
    page, visit = browser_site.open(page_path)
    try:
        roots = page.locator(".posenc-explorer[data-explorer]").all()
        assert roots, f"no explorer rendered on {page_path}"
        yield [LiveExplorer(page, root, root.get_attribute("data-explorer")) for root in roots]
        assert visit.console_errors == [], "console errors while using the explorers"
    finally:
        page.close()


def assert_same_numbers(live: LiveExplorer, where: str) -> None:
    """The page's readouts are those posenc computes for the state the page shows."""
    shown, computed = live.readouts(), EXPLORERS[live.kind](**live.state()).readouts()
    assert shown.keys() == computed.keys(), f"{where}: readouts {sorted(shown)} vs posenc {sorted(computed)}"
    for name, value in computed.items():
        got = np.asarray(shown[name], dtype=float)
        assert got.shape == np.shape(value), f"{where}: {name} has shape {got.shape}"
        assert np.allclose(got, value, rtol=1e-9, atol=1e-12), f"{where}: {name} = {shown[name]}, posenc {value}"


def operate(live: LiveExplorer, control) -> Iterator[str]:
    """Use one control as a reader would: a slider one step (back from its end), each choice of a list in turn, a
    button once when it is enabled; say what was done, after each step."""
    name, tag = control.get_attribute("data-control"), control.evaluate("(c) => c.tagName")
    if tag == "SELECT":
        for value in control.locator("option").evaluate_all("(options) => options.map((o) => o.value)"):
            control.select_option(value)
            yield f"{name} = {value}"
    elif tag == "BUTTON":
        if control.is_enabled():
            before = live.state()
            control.click()
            assert live.state() != before, f"button {name} changed nothing"
            yield f"pressing {name}"
    else:
        before = live.state()[name]
        key = "ArrowLeft" if control.evaluate("(s) => s.value === s.max") else "ArrowRight"
        live.press(name, key)
        assert live.state()[name] == before + (1 if key == "ArrowRight" else -1), f"slider {name} did not move"
        yield f"moving {name}"


def test_explorer_readouts_match_posenc_before_and_after_every_control(browser_site, explorer_page):
    """Every slider, choice and button of every explorer on the site: the page's readouts are posenc's after each.
    (What the readouts mean -- scores that depend only on the offset, the aliasing of a fast hand -- is tested on
    posenc itself, tests/test_explorers.py.)"""
    with opened(browser_site, explorer_page) as explorers:
        for n, live in enumerate(explorers):
            where = f"{live.kind} explorer #{n}"
            assert_same_numbers(live, f"{where} as loaded")
            for control in live.root.locator("[data-control]").all():
                for done in operate(live, control):
                    assert_same_numbers(live, f"{where} after {done}")


@pytest.fixture(scope="module")
def kinds(browser_site) -> dict[str, LiveExplorer]:
    """The first explorer of each kind on the explorers page, opened once: each test sets what it reads first."""
    with opened(browser_site, EXPLORERS_PAGE) as explorers:
        yield {live.kind: live for live in reversed(explorers)}


def test_sinusoidal_similarity_curve_slides_with_the_position(kinds):
    live = kinds["sinusoidal"]
    live.set("position", 10)
    curve = live.root.locator("polyline[data-values]")
    before = np.array(json.loads(curve.get_attribute("data-values")))
    live.press("position")
    after = np.array(json.loads(curve.get_attribute("data-values")))
    assert after.argmax() == before.argmax() + 1 == 11
    np.testing.assert_allclose(after[1:], before[:-1], atol=1e-12)  # s_{p+1}(q+1) = s_p(q)


def test_sinusoidal_d_model_choice_redraws_the_table(kinds):
    live = kinds["sinusoidal"]
    live.set("dimension", 40)
    for d_model in (16, 128, 64):
        live.control("d_model").select_option(str(d_model))
        assert live.state()["dimension"] <= d_model - 1
        assert live.control("dimension").get_attribute("max") == str(d_model - 1)
        assert live.root.locator("canvas").evaluate("(c) => c.width") % d_model == 0


def test_rope_buttons_move_both_positions_and_stop_at_the_last(kinds):
    live = kinds["rope"]
    live.set("m", 4)
    live.set("n", 1)
    for step in (1, 5):
        live.control(f"both+{step}").click()
    assert (live.state()["m"], live.state()["n"]) == (10, 7)
    live.set("m", live.state()["max_position"] - 3)
    assert live.control("both+5").is_disabled()
    assert live.control("both+1").is_enabled()


def test_clock_marks_the_fast_hand_aliased_and_a_slow_one_not_as_posenc_finds(kinds):
    """(What aliasing is, and which hands alias: tests/test_explorers.py.)"""
    live = kinds["clock"]
    live.set("n_positions", 16)
    live.set("position", 0)
    state = live.state()
    slow = int(np.argmax(frequencies(state["d"], state["base"]) * 15 < np.pi))  # 16 positions in half a turn
    for hand, aliased in ((0, True), (slow, False)):  # hand 0: 6 radians is just short of a full turn
        live.set("hand", hand)
        assert live.root.get_attribute("data-aliased") == str(aliased).lower()
        assert EXPLORERS["clock"](**live.state()).aliased is aliased
