"""Every posenc explorer on the site responds to input as the mathematics says, with no kernel behind it.

The page computes its readouts in JavaScript from the widget state; each test reads them (the exact values
sit in each readout's ``data-value``) and compares them with the same numbers computed by ``posenc``
(``EXPLORERS[kind](**state).readouts()``), before and after moving the controls. Every copy of every explorer,
on every page that shows one, has each of its sliders moved and its readouts compared; the behaviour of each
kind (what a slider, a button or a choice does) is one script, checked on one copy of the kind.
"""

from __future__ import annotations

import json
import math
from contextlib import contextmanager

import numpy as np
import pytest

from posenc.book.explorers import EXPLORERS
from posenc.sinusoidal import frequencies

pytestmark = pytest.mark.browser

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

    def press(self, name: str, key: str = "ArrowRight", times: int = 1) -> None:
        self.control(name).focus()
        for _ in range(times):
            self.page.keyboard.press(key)

    def posenc_readouts(self) -> dict:
        """What posenc computes for the state the page shows."""
        return EXPLORERS[self.kind](**self.state()).readouts()


@contextmanager
def opened(browser_site, ref):
    page_path, kind, nth = ref
    page, visit = browser_site.open(page_path)
    try:
        root = page.locator(f'.posenc-explorer[data-explorer="{kind}"]').nth(nth)
        assert root.count() == 1, f"explorer {kind} #{nth} did not render on {page_path}"
        yield LiveExplorer(page, root, kind)
        assert visit.console_errors == [], "console errors while using the explorer"
    finally:
        page.close()


def assert_same_numbers(shown, computed, where: str) -> None:
    assert shown.keys() == computed.keys(), f"{where}: readouts {sorted(shown)} vs posenc {sorted(computed)}"
    for name, value in computed.items():
        got = np.asarray(shown[name], dtype=float)
        assert got.shape == np.shape(value), f"{where}: {name} has shape {got.shape}"
        assert np.allclose(got, value, rtol=1e-9, atol=1e-12), f"{where}: {name} = {shown[name]}, posenc {value}"


def test_explorer_readouts_match_posenc_before_and_after_every_control(browser_site, explorer):
    with opened(browser_site, explorer) as live:
        assert_same_numbers(live.readouts(), live.posenc_readouts(), "as loaded")
        sliders = live.root.locator('input[type="range"]')
        for i in range(sliders.count()):
            slider = sliders.nth(i)
            name = slider.get_attribute("data-control")
            before = live.state()[name]
            key = "ArrowLeft" if slider.evaluate("(s) => s.value === s.max") else "ArrowRight"
            live.press(name, key)
            assert live.state()[name] == before + (1 if key == "ArrowRight" else -1), f"slider {name} did not move"
            assert_same_numbers(live.readouts(), live.posenc_readouts(), f"after moving {name}")


def test_sinusoidal_similarity_curve_slides_with_the_position(browser_site, sinusoidal_explorer):
    with opened(browser_site, sinusoidal_explorer) as live:
        live.set("position", 10)
        curve = live.root.locator("polyline[data-values]")
        before = np.array(json.loads(curve.get_attribute("data-values")))
        live.press("position")
        after = np.array(json.loads(curve.get_attribute("data-values")))
        assert after.argmax() == before.argmax() + 1 == 11
        np.testing.assert_allclose(after[1:], before[:-1], atol=1e-12)  # s_{p+1}(q+1) = s_p(q)


def test_sinusoidal_d_model_choice_redraws_the_table(browser_site, sinusoidal_explorer):
    with opened(browser_site, sinusoidal_explorer) as live:
        live.set("dimension", 40)
        for d_model in (16, 128, 64):
            live.control("d_model").select_option(str(d_model))
            state = live.state()
            assert state["d_model"] == d_model
            assert state["dimension"] <= d_model - 1
            assert live.control("dimension").get_attribute("max") == str(d_model - 1)
            assert live.root.locator("canvas").evaluate("(c) => c.width") % d_model == 0
            assert_same_numbers(live.readouts(), live.posenc_readouts(), f"d_model = {d_model}")


@pytest.mark.parametrize("step", [1, 5])
def test_rope_moving_both_positions_leaves_both_dot_products_unchanged(browser_site, rope_explorer, step):
    with opened(browser_site, rope_explorer) as live:
        live.set("m", 4)
        live.set("n", 1)
        before = live.readouts()
        for _ in range(3):
            live.control(f"both+{step}").click()
        after, state = live.readouts(), live.state()
        assert (state["m"], state["n"]) == (4 + 3 * step, 1 + 3 * step)
        assert after["offset"] == before["offset"]
        assert not np.allclose(after["q_after"], before["q_after"]), "the query pair did not turn"
        assert math.isclose(after["pair_dot"], before["pair_dot"], rel_tol=1e-9, abs_tol=1e-12)
        assert math.isclose(after["full_dot"], before["full_dot"], rel_tol=1e-9, abs_tol=1e-12)
        assert_same_numbers(after, live.posenc_readouts(), f"after Both +{step}")


def test_rope_moving_only_the_key_changes_the_score(browser_site, rope_explorer):
    with opened(browser_site, rope_explorer) as live:
        before = live.readouts()
        live.press("n")
        after = live.readouts()
        assert after["offset"] == before["offset"] + 1
        assert abs(after["full_dot"] - before["full_dot"]) > 1e-6
        assert abs(after["pair_dot"] - before["pair_dot"]) > 1e-6


def test_rope_buttons_stop_at_the_last_position(browser_site, rope_explorer):
    with opened(browser_site, rope_explorer) as live:
        top = live.state()["max_position"]
        live.set("m", top - 3)
        assert live.control("both+5").is_disabled()
        assert live.control("both+1").is_enabled()


def test_clock_one_fast_hand_aliases_but_all_hands_do_not(browser_site, clock_explorer):
    with opened(browser_site, clock_explorer) as live:
        live.set("n_positions", 16)
        live.set("hand", 0)
        live.set("position", 0)
        readouts = live.readouts()
        assert readouts["nearest_on_hand"][0] == 6  # 6 radians is just short of a full turn
        assert readouts["nearest_on_clock"][0] == 1
        assert live.root.get_attribute("data-aliased") == "true"
        state = live.state()
        slow = int(np.argmax(frequencies(state["d"], state["base"]) * 15 < np.pi))  # 16 positions in half a turn
        live.set("hand", slow)  # (hand 8 for d = 64, theta = 0.1): the positions fan out in order
        assert live.readouts()["nearest_on_hand"][0] == 1
        assert live.root.get_attribute("data-aliased") == "false"
        assert EXPLORERS["clock"](**live.state()).aliased is False
