"""The second edition of chapters 1-5 (issue 12): the claims they added, the lecture's numbers they quote,
and the shape of the pages (notation, short cells, code on the page, no repeats, no forward references)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
import yaml
from conftest import ROOT
from hypothesis import given
from hypothesis import strategies as st

from posenc import claims
from posenc.sinusoidal import frequencies, shift_matrix, similarity

even_d = st.integers(1, 32).map(lambda h: 2 * h)
shifts = st.floats(-1e4, 1e4, allow_nan=False)
CHAPTERS = sorted((ROOT / "chapters").glob("0[1-5]_*.ipynb"))


def cells(path, kind=None):
    return [("".join(c["source"]), c) for c in json.loads(path.read_text())["cells"]
            if kind is None or c["cell_type"] == kind]


def chapter(number: str):
    return next(p for p in CHAPTERS if p.name.startswith(number))


def markdown(number: str) -> str:
    return "\n".join(text for text, _ in cells(chapter(number), "markdown"))


# ---- claims ----


@given(shifts, even_d)
def test_shift_matrix_blocks_are_clockwise_rotations(k, d):
    assert claims.shift_blocks_turn_clockwise(k, d).holds


def test_shift_matrix_blocks_are_not_the_counter_clockwise_rotations():
    k, d = 5, 8
    block = shift_matrix(k, d)[:2, :2]
    c, s = np.cos(k * frequencies(d)[0]), np.sin(k * frequencies(d)[0])
    counter_clockwise = np.array([[c, -s], [s, c]])
    assert np.max(np.abs(block - counter_clockwise)) > 1.0  # the off-diagonal entries differ by 2 |sin 5| = 1.92


@given(st.integers(-5000, 5000), st.integers(-5000, 5000), even_d)
def test_scaled_sinusoidal_dot_product_is_the_cosine_similarity(m, n, d):
    assert claims.sinusoidal_cosine_similarity(m, n, d).holds


@pytest.mark.parametrize(("d", "lecture"), [(16, 0.936), (64, 0.966), (128, 0.970)])
def test_the_lecture_similarity_of_positions_12_and_13_is_reproduced(d, lecture):
    assert round(float(similarity(12, [13], d)[0] / (d / 2)), 3) == lecture


def test_the_lectures_theta_1_is_not_rung_1_at_d_64():
    theta = frequencies(64)
    assert round(float(theta[1]), 3) == 0.750
    assert int(np.argmin(np.abs(theta - 0.1))) == 8


@given(st.floats(-1e4, 1e4, allow_nan=False), even_d, st.integers(0, 2**32 - 1))
def test_apply_rope_turns_each_pair_by_its_own_plane_rotation(m, d, seed):
    assert claims.rope_turns_each_pair(m, d, seed=seed).holds


# ---- the pages ----


def test_notation_page_is_in_the_table_of_contents_before_the_glossary():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [entry["file"] for part in toc["parts"] for entry in part["chapters"]]
    assert files.index("appendix/notation") == files.index("glossary") - 1
    assert (ROOT / "appendix" / "notation.md").read_text().splitlines()[1] == "# Notation"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_markdown_cell_is_longer_than_40_lines(path):
    lengths = [len(text.splitlines()) for text, _ in cells(path, "markdown")]
    assert max(lengths) <= 40, lengths


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_positions_and_position_vectors_follow_the_notation_page(path):
    prose = "\n".join(text for text, _ in cells(path, "markdown"))
    assert not re.search(r"\bp_[mnp]\b", prose), "a position vector is e_p (learned) or PE(p) (sinusoidal)"
    assert "PE}(q)" not in prose and "PE(q)" not in prose, "q is a query vector, never a position"
    assert "X \\in \\mathbb{R}^{n" not in prose, "a sequence has N tokens"


@pytest.mark.parametrize(("number", "functions"), [
    ("03", {"sinusoidal.py": ["frequencies", "sinusoidal_table"]}),
    ("04", {"rotary.py": ["_rotate_pairs"]}),
])
def test_core_code_is_shown_from_the_package(number, functions):
    includes = re.findall(r"```\{literalinclude\} \.\./src/posenc/(\w+\.py)\n:pyobject: (\w+)", markdown(number))
    for module, names in functions.items():
        source = (ROOT / "src" / "posenc" / module).read_text()
        for name in names:
            assert (module, name) in includes
            assert re.search(rf"^def {name}\(", source, re.M), f"{module} has no function {name}"


def test_chapter_three_neither_runs_rope_nor_repeats_the_length_experiment():
    code = "\n".join(text for text, _ in cells(chapter("03"), "code"))
    assert "rope" not in code.lower()
    assert "np.linalg.norm(x +" not in code
    assert "x + p_m" not in markdown("03")


def test_chapter_three_says_which_way_the_shift_blocks_turn():
    prose = markdown("03")
    assert "R(-k\\theta_j)" in prose and "clockwise" in prose
    assert "the width of one attention head" not in prose


def test_the_offset_only_check_runs_once_in_chapters_three_and_four():
    code = {n: "\n".join(text for text, _ in cells(chapter(n), "code")) for n in ("03", "04")}
    assert "rope_scores_depend_on_offset" not in code["03"]
    assert code["04"].count("rope_scores_depend_on_offset") == 1


def test_lecture_slips_are_named():
    assert "lecture" in markdown("03") and "theta-1" in markdown("03") and "lecture-hand" in markdown("03")
    assert "m - n" in markdown("04")


def test_figure_alt_texts_carry_no_typed_numbers():
    for path in CHAPTERS:
        for text, _ in cells(path, "markdown"):
            for alt in re.findall(r"^:alt: (.*)$", text, re.M):
                assert not re.search(r"\d", alt), f"{path.name}: alt text with a typed number: {alt}"
