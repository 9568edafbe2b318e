"""The explorers respond to input as the mathematics says, with no kernel behind it.

The page computes its readouts in JavaScript from the widget state (the exact values sit in each readout's
``data-value``); the tests compare them with posenc's for the same state. Every copy of a kind runs one script,
so its controls, and what it draws (the curve, the table, the buttons' limits, the aliasing mark), are tried on
the explorers page, which holds every kind; every explorer of every page, as loaded, shows posenc's numbers
(test_site_pages.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import numpy as np
import pytest

from posenc.book.explorers import EXPLORERS
from posenc.sinusoidal import frequencies

from .conftest import READ_EXPLORER, assert_same_numbers

pytestmark = pytest.mark.browser
EXPLORERS_PAGE = "appendix/explorers.html"
SET_VALUE = """(input, value) => { input.value = String(value);
  input.dispatchEvent(new Event('input', {bubbles: true})); }"""


class LiveExplorer:
    """One explorer on an open page: its controls, its state and its readouts."""

    def __init__(self, page, root, kind: str):
        self.page, self.root, self.kind = page, root, kind

    def read(self) -> dict:
        return self.root.evaluate(READ_EXPLORER)

    def state(self) -> dict:
        return self.read()["state"]

    def control(self, name: str):
        return self.root.locator(f'[data-control="{name}"]')

    def set(self, name: str, value: int) -> None:
        self.control(name).evaluate(SET_VALUE, value)

    def press(self, name: str, key: str = "ArrowRight") -> None:
        self.control(name).focus()
        self.page.keyboard.press(key)


@pytest.fixture(scope="module")
def kinds(browser_site) -> dict[str, LiveExplorer]:
    """The first explorer of each kind on the explorers page, opened once: each test sets what it reads first."""
    page, visit = browser_site.open(EXPLORERS_PAGE)
    try:
        explorers = [LiveExplorer(page, root, root.get_attribute("data-explorer"))
                     for root in page.locator(".posenc-explorer[data-explorer]").all()]
        yield {live.kind: live for live in reversed(explorers)}  # the first of each kind
        assert visit.console_errors == [], "console errors while using the explorers"
    finally:
        page.close()


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


def test_explorer_readouts_match_posenc_after_every_control(kinds):
    """Every slider, choice and button of every kind of explorer: the page's readouts are posenc's after each.
    (What the readouts mean -- scores that depend only on the offset, the aliasing of a fast hand -- is tested on
    posenc itself, tests/test_explorers.py.)"""
    assert sorted(kinds) == sorted(EXPLORERS), "the explorers page holds one of every kind"
    for live in kinds.values():
        for control in live.root.locator("[data-control]").all():
            for done in operate(live, control):
                assert_same_numbers(live.read(), f"{live.kind} explorer after {done}")


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
