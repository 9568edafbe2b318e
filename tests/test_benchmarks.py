"""The timing scripts behind the appendix's tables: they run, and their ratios mean what the headings say."""

from __future__ import annotations

import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import rope  # noqa: E402 (benchmarks/ is a folder of scripts, not a package)


def test_a_speed_ratio_is_the_median_of_each_rounds_ratio():
    # the floor drifts from 1 s to 3 s; the variant always takes twice as long as the floor of its round
    times = {"floor": [1.0, 3.0, 2.0], "variant": [2.0, 6.0, 4.0]}
    assert rope.speed_against(times, "variant", "floor") == 0.5
    assert rope.speed_against(times, "floor", "floor") == 1.0


def test_the_rope_table_has_every_variant_against_each_floor():
    functions, nbytes = rope.variants([1, 2, 16, 8])
    table = rope.report(rope.measure(functions, repeats=3), nbytes, [1, 2, 16, 8])
    rows = {line.split(" | ")[0].lstrip("| "): line.split(" | ")[1:] for line in table.splitlines()
            if line.startswith("| ") and not line.startswith("| variant")}
    assert set(rows) == set(functions)
    assert rows["torch copy (floor)"][2] == "1.00"  # each floor against itself
    assert rows["torch copy into an existing tensor"][3] == "1.00"
    assert rows["Meta complex form (torch)"][4].rstrip(" |") == "1.00"


def test_the_rope_report_gives_each_target_its_ratio_from_the_same_run():
    # each variant takes the same time in every round, so each ratio is known exactly
    times = {name: [seconds] * 3 for name, seconds in (("posenc torch, interleaved", 1.0),
                                                       ("posenc torch, interleaved, out=", 1.0),
                                                       ("Meta complex form (torch)", 2.0),
                                                       ("torch copy into an existing tensor", 0.5),
                                                       ("HF rotate_half (torch)", 8.0))}
    assert rope.targets(times) == [
        "- apply_rope against Hugging Face's rotate_half: 8.00x (target: at least 3x)",
        "- apply_rope against Meta's complex form: 2.00x (target: level, about 1x)",
        "- apply_rope with out= against a copy into an existing tensor: 0.50x (target: at least 0.5x)",
    ]
