"""Chapter 6, *The score matrix is Toeplitz*: the convolution matrix its page writes is torch's layer, and its bar is
the exercise's."""

from __future__ import annotations

import re

import nbformat
import numpy as np
import pytest
from conftest import ROOT

CHAPTER = ROOT / "chapters" / "06_toeplitz_scores.ipynb"


def page_convolution_matrix():
    """``convolution_matrix`` as the page's cell ``convolution-matrix`` defines it."""
    (cell,) = [c for c in nbformat.read(CHAPTER, as_version=4).cells if c.get("id") == "convolution-matrix"]
    namespace = {"np": np}
    exec(cell.source, namespace)
    return namespace["convolution_matrix"]


@pytest.mark.parametrize("padding", ["zeros", "circular"])
def test_convolution_matrix_is_the_matrix_of_torch_conv1d_with_that_padding(padding):
    torch = pytest.importorskip("torch")
    w, n = np.array([0.5, -1.0, 2.0, 3.0, -0.25]), 9
    layer = torch.nn.Conv1d(1, 1, w.size, padding=w.size // 2, padding_mode=padding, bias=False).double()
    with torch.no_grad():
        layer.weight.copy_(torch.from_numpy(w).view(1, 1, -1))
        columns = layer(torch.eye(n, dtype=torch.float64)[:, None, :])[:, 0, :].numpy().T  # column c: unit at c
    np.testing.assert_allclose(page_convolution_matrix()(w, n, padding=padding), columns, rtol=0, atol=1e-14)


def test_the_chapter_measures_against_the_bar_of_the_exercise_look_three_back():
    """The chapter's share and context are the ones the exercise's test demands, so the text's "the bar of the
    exercise" stays true when either changes."""
    context, share = re.search(r"LOOKBACK_CONTEXT, LOOKBACK_WEIGHT = (\d+), ([\d.]+)", CHAPTER.read_text()).groups()
    exercise = (ROOT / "exercises" / "source" / "ch06_toeplitz" / "toeplitz.ipynb").read_text()
    assert f"last_query_weights(q, k, {context}, base=base)" in exercise
    assert f"if weights[-4] >= {share}:" in exercise
