"""Second edition, chapters 6-9: circulant iff wrapped diagonals, convolution layers are banded Toeplitz, the
reference-code forms of dynamic NTK and YaRN, and the shape of the split chapters 8 and 9."""

import json
import math
import re

import numpy as np
import pytest
import yaml
from conftest import ROOT
from hypothesis import given
from hypothesis import strategies as st

from posenc import claims, scores
from posenc.scaling import dynamic_ntk, yarn, yarn_correction_range, yarn_reference

seed = st.integers(0, 10_000)
base = st.sampled_from([10_000.0, 500_000.0, 1_000_000.0])
CHAPTERS = ROOT / "chapters"
MY_CHAPTERS = ["06_toeplitz_scores", "07_clock_with_many_hands", "08_serving_rope", "09_stretching_rope",
               "10_the_family"]


# ---- chapter 6: circulant and Toeplitz, convolution layers ----


@given(n=st.integers(2, 9), seed=seed)
def test_a_toeplitz_matrix_is_circulant_exactly_when_its_diagonals_wrap(n, seed):
    assert claims.toeplitz_circulant_iff(n, trials=12, seed=seed).holds


def test_the_iff_check_sees_both_verdicts():
    # a Toeplitz matrix whose wrapped diagonals differ is not circulant; copying them makes it circulant
    row = np.array([1.0, 2.0, 3.0, 4.0])
    broken = scores.toeplitz([1.0, 5.0, 6.0, 7.0], row)
    wrapped = scores.toeplitz([1.0, 4.0, 3.0, 2.0], row)  # f(-D) = f(N - D)
    assert scores.circulant_deviation(broken) > 0 and scores.circulant_deviation(wrapped) == 0
    np.testing.assert_array_equal(wrapped, scores.circulant(row))


def test_the_exercises_circular_convolution_is_the_chapters_circulant_with_the_filter_reversed():
    # exercise: C[i, j] = w((i - j) mod n); chapter: C[m, n] = c((n - m) mod N) with c(D) = w(-D mod N)
    w = np.random.default_rng(1).standard_normal(7)
    n = w.size
    exercise = np.array([[w[(i - j) % n] for j in range(n)] for i in range(n)])
    np.testing.assert_array_equal(exercise, scores.circulant(w[(-np.arange(n)) % n]))


@given(n=st.integers(6, 20), width=st.sampled_from([1, 3, 5]), seed=seed)
def test_a_zero_padded_convolution_layer_has_a_banded_toeplitz_matrix(n, width, seed):
    assert claims.convolution_is_banded_toeplitz(n, width, seed).holds


def test_convolution_matrix_computes_the_layer_and_is_not_circulant():
    w, n, r = np.array([0.5, -1.0, 2.0, 3.0, -0.25]), 9, 2
    x = np.random.default_rng(3).standard_normal(n)
    by_hand = [sum(w[k] * x[m + k - r] for k in range(w.size) if 0 <= m + k - r < n) for m in range(n)]
    matrix = claims.convolution_matrix(w, n)
    np.testing.assert_allclose(matrix @ x, by_hand, rtol=1e-13, atol=1e-13)
    assert scores.toeplitz_deviation(matrix) == 0.0 and scores.circulant_deviation(matrix) > 0.5


# ---- chapter 9: the reference code's dynamic NTK and YaRN, next to the papers' ----


def hf_dynamic_inv_freq(d, seq_len, original, base, factor):
    """Hugging Face's `dynamic` rope type, written out: the base grows with the length beyond L0."""
    seq_len = max(seq_len, original)
    new_base = base * ((factor * seq_len / original) - (factor - 1)) ** (d / (d - 2))
    return [1.0 / new_base ** (2 * j / d) for j in range(d // 2)]


@given(d=st.integers(4, 128).map(lambda h: 2 * h), times=st.floats(0.1, 32.0), factor=st.floats(1.0, 16.0), b=base)
def test_dynamic_ntk_with_a_factor_is_hugging_faces_dynamic_rope(d, times, factor, b):
    np.testing.assert_allclose(dynamic_ntk(d, times * 4096, 4096, b, factor=factor),
                               hf_dynamic_inv_freq(d, times * 4096, 4096, b, factor), rtol=1e-12)


@given(factor=st.floats(1.0, 32.0), b=base)
def test_the_two_dynamic_forms_agree_up_to_the_context_and_differ_beyond(factor, b):
    assert claims.dynamic_ntk_forms(128, factor, 8192, b).holds
    paper, code = dynamic_ntk(128, 3 * 8192, 8192, b), dynamic_ntk(128, 3 * 8192, 8192, b, factor=factor)
    # the slowest hand: divided by L/L0 = 3 in the paper, by factor * 3 - (factor - 1) in the code
    assert code[-1] / paper[-1] == pytest.approx(3 / (3 * factor - (factor - 1)), rel=1e-12)


def hf_yarn_inv_freq(d, factor, original, base, beta_fast=32, beta_slow=1):
    """Hugging Face's `_compute_yarn_parameters` (truncate=True), written out in plain arithmetic."""
    def correction_dim(rotations):
        return (d * math.log(original / (rotations * 2 * math.pi))) / (2 * math.log(base))

    low = max(math.floor(correction_dim(beta_fast)), 0)
    high = min(math.ceil(correction_dim(beta_slow)), d - 1)
    if low == high:
        high += 0.001
    out = []
    for j in range(d // 2):
        pos_freq = base ** (2 * j / d)
        ramp = min(max((j - low) / (high - low), 0.0), 1.0)
        extrapolation = 1 - ramp
        out.append(1 / (factor * pos_freq) * (1 - extrapolation) + 1 / pos_freq * extrapolation)
    return out


@given(d=st.integers(8, 128).map(lambda h: 2 * h), factor=st.floats(1.0, 64.0), b=base,
       context=st.sampled_from([2048, 4096, 8192, 32_768]))
def test_yarn_reference_is_hugging_faces_yarn_rope(d, factor, b, context):
    np.testing.assert_allclose(yarn_reference(d, factor, context, b), hf_yarn_inv_freq(d, factor, context, b),
                               rtol=1e-12)


def test_yarn_correction_range_for_llama_2_and_llama_3():
    # by hand: j(r) = d ln(L0 / (2 pi r)) / (2 ln b)
    assert yarn_correction_range(128, 4096) == (20, 46)  # 20.9 and 45.1 rounded outward
    assert yarn_correction_range(128, 8192, 500_000.0) == (18, 35)  # 18.1 and 34.98


@given(d=st.integers(8, 128).map(lambda h: 2 * h), factor=st.floats(1.0, 64.0), b=base,
       context=st.sampled_from([2048, 4096, 8192]))
def test_yarn_paper_and_code_agree_outside_the_codes_ramp(d, factor, b, context):
    assert claims.yarn_forms_agree_outside_ramp(d, factor, context, b).holds


def test_yarn_paper_and_code_differ_inside_the_ramp():
    gap = np.abs(yarn_reference(128, 8, 8192, 500_000.0) - yarn(128, 8, 8192, 500_000.0))
    low, high = yarn_correction_range(128, 8192, 500_000.0)
    assert np.all(gap[low + 2:high - 1] > 0) and gap.max() > 0.01 * yarn(128, 8, 8192, 500_000.0)[low + 2]


# ---- the pages: the split, cell and chapter sizes, code on the page ----


def markdown_cells(name):
    notebook = json.loads((CHAPTERS / f"{name}.ipynb").read_text(encoding="utf-8"))
    return ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown"]


def test_chapter_8_is_split_into_serving_and_stretching_in_the_table_of_contents():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [entry["file"] for part in toc["parts"] for entry in part["chapters"]]
    assert files.index("chapters/08_serving_rope") + 1 == files.index("chapters/09_stretching_rope")
    assert not (CHAPTERS / "08_rope_in_practice.ipynb").exists()
    assert markdown_cells("08_serving_rope")[0].startswith("(ch-serving-rope)=\n# Serving RoPE")
    assert markdown_cells("09_stretching_rope")[0].startswith("(ch-stretching-rope)=\n# Stretching RoPE")


def test_no_page_names_the_old_chapter_8():
    pages = [*CHAPTERS.glob("*.ipynb"), ROOT / "_toc.yml", *ROOT.glob("*.md"), *(ROOT / "appendix").glob("*.md")]
    assert [page.name for page in pages if "08_rope_in_practice" in page.read_text(encoding="utf-8")] == []


@pytest.mark.parametrize("name", MY_CHAPTERS)
def test_chapters_keep_markdown_cells_short_and_prose_under_3800_words(name):
    cells = markdown_cells(name)
    assert max(len(cell.splitlines()) for cell in cells) <= 40
    assert sum(len(cell.split()) for cell in cells) <= 3800


@pytest.mark.parametrize("name", MY_CHAPTERS)
def test_code_included_on_the_page_exists_in_the_package(name):
    for cell in markdown_cells(name):
        for path, function in re.findall(r"```\{literalinclude\} (\S+)\n:pyobject: (\w+)", cell):
            source = (CHAPTERS / path).resolve().read_text(encoding="utf-8")
            assert re.search(rf"^def {function}\(", source, re.MULTILINE), f"{path} has no {function}"


def test_chapter_7_shows_the_block_diagonal_builder():
    included = re.findall(r":pyobject: (\w+)", "".join(markdown_cells("07_clock_with_many_hands")))
    assert "rope_matrix" in included and "block_diagonal_rotation" in included
