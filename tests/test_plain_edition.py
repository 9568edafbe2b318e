"""The plain edition (notebooks/): what the Colab and Binder buttons open reads like the website's page.

`make book` writes it (_ext/plain_edition.py); these tests compare it with the built site: the same glued
numbers, the same theorem, figure and equation numbers, the same figures, the page's code cells, and no
MyST syntax left in any notebook a button opens. Running them is tests/test_student_environments.py's job.
"""

from __future__ import annotations

import base64
import io
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import ROOT
from PIL import Image

sys.path.insert(0, str(ROOT / "tools"))
import course_links  # noqa: E402

COURSE = course_links.Course.of(ROOT)
MYST = {
    "role": re.compile(r"\{[a-z][\w:.-]*\}`"),
    "directive": re.compile(r"^\s*(```+|:::+)\s*\{", re.M),
    "target": re.compile(r"^\s*\([\w:.-]+\)=\s*$", re.M),
    "directive option": re.compile(r"^:(label|name|alt|class|nonumber|tags):", re.M),
    "glue": re.compile(r"glue:(text|figure|math|any)"),
}


def edition_pages() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [entry["file"] for part in toc["parts"] for entry in part["chapters"]]
    return [f for f in files if f.startswith("chapters/") or f == "appendix/explorers"]


def edition(page: str) -> nbformat.NotebookNode:
    path = ROOT / "notebooks" / f"{page}.ipynb"
    assert path.is_file(), f"no plain edition {path}: run `make book`"
    return nbformat.read(str(path), as_version=4)


def markdown(notebook: nbformat.NotebookNode) -> str:
    return "\n\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")


def unescaped(text: str) -> str:
    return re.sub(r"\\([\\`*_\[\]<>$|#])", r"\1", text)


def opened_by_buttons() -> list[Path]:
    """Every notebook a Colab or Binder button of the site opens."""
    return sorted((ROOT / "notebooks").rglob("*.ipynb")) + sorted((ROOT / "exercises" / "release").glob("*/*.ipynb"))


def soup(site: Path, page: str) -> BeautifulSoup:
    return BeautifulSoup((site / f"{page}.html").read_text(encoding="utf-8"), "html.parser")


def test_every_chapter_and_the_explorers_page_has_a_plain_edition(site):
    pages = edition_pages()
    chapters = sorted(f"chapters/{path.stem}" for path in (ROOT / "chapters").glob("*.ipynb"))
    assert [p for p in pages if p.startswith("chapters/")] == chapters and "appendix/explorers" in pages
    made = {p.relative_to(ROOT / "notebooks").with_suffix("").as_posix() for p in (ROOT / "notebooks").rglob("*.ipynb")}
    assert made == set(pages)


@pytest.mark.parametrize("path", opened_by_buttons(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_myst_syntax_survives_in_a_notebook_a_button_opens(path):
    text = markdown(nbformat.read(str(path), as_version=4))
    found = {kind: pattern.findall(text)[:3] for kind, pattern in MYST.items() if pattern.search(text)}
    assert found == {}, f"MyST left in {path.name}: {found}"


@pytest.mark.parametrize("page", edition_pages())
def test_plain_edition_carries_the_pages_numbers_glued_values_and_figures(site, page):
    html, text = soup(site, page), markdown(edition(page))
    boxes = [re.sub(r"\s+", " ", span.get_text()).strip()
             for span in html.select("p.admonition-title span.caption-number")]  # "Theorem 4.1"
    figures = [re.sub(r"\s+", " ", span.get_text()).strip() for span in html.select("figure span.caption-number")]
    equations = [re.search(r"\(([\d.]+)\)", span.get_text()).group(1) for span in html.select("span.eqno")]
    for box in boxes:
        assert f"**{box}**" in text, f"{page}: no {box!r} box in the plain edition"
    for figure in figures:
        assert f"**{figure}**" in text, f"{page}: no {figure!r} in the plain edition"
    for number in equations:
        assert rf"\tag{{{number}}}" in text, f"{page}: equation ({number}) is not tagged"
    glued = [span.get_text() for span in html.select("span.pasted-text")]
    plain = unescaped(text)
    assert [value for value in glued if value not in plain] == []
    assert text.count("](data:image/") == len(html.select("figure img"))
    if page.startswith("chapters/"):
        assert boxes or equations, f"{page}: the test found no numbered item to compare"


@pytest.mark.parametrize("page", edition_pages())
def test_plain_edition_has_the_pages_code_cells_without_outputs(site, page):
    source = nbformat.read(str(ROOT / f"{page}.ipynb"), as_version=4)
    plain = edition(page)
    assert [c.source for c in plain.cells if c.cell_type == "code"] == [
        c.source for c in source.cells if c.cell_type == "code"]
    assert all(not c.outputs and c.execution_count is None for c in plain.cells if c.cell_type == "code")
    first = next(c for c in plain.cells if c.cell_type == "code")
    assert first.source == course_links.install_cell_source(COURSE)


def test_links_of_the_plain_edition_point_into_the_website(site):
    text = markdown(edition("chapters/01_attention_sees_a_set"))
    links = re.findall(r"\]\((https?://[^)\s]+)\)", text)
    internal = [u for u in links if u.startswith(COURSE.site)]
    assert any("glossary.html#term-" in u for u in internal), "no term links into the glossary"
    assert any("#equation-" in u for u in internal), "no equation links"
    for url in internal:  # each names a page (and an id) the built site has
        path, _, anchor = url.removeprefix(COURSE.site).partition("#")
        assert (site / path).is_file(), url
        if anchor:
            assert f'id="{anchor}"' in (site / path).read_text(encoding="utf-8"), url


def test_exercise_links_on_the_site_open_the_release_on_colab_and_binder(site):
    html = (site / "appendix" / "exercises.html").read_text(encoding="utf-8")
    for path in sorted((ROOT / "exercises" / "release").glob("*/*.ipynb")):
        relative = path.relative_to(ROOT).as_posix()
        assert f'href="{COURSE.colab(relative)}"' in html
        assert f'href="{COURSE.binder(relative)}"' in html.replace("&amp;", "&")


NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
IMAGE = re.compile(r"data:image/png;base64,([A-Za-z0-9+/=]+)")
ROUND_OFF = 1e-10  # a deviation this small is floating-point round-off, whose last digits differ between CPUs


def same_image(committed: str, built: str) -> bool:
    """The two PNGs show the same picture: same size, and no pixel apart by more than 16 of 255 levels
    (a curve that moved by a pixel changes some by far more; antialiasing of equal data by one or two)."""
    a, b = (np.asarray(Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB"), dtype=int)
            for data in (committed, built))
    return a.shape == b.shape and int(np.abs(a - b).max(initial=0)) <= 16


def same_up_to_round_off(committed: str, built: str) -> bool:
    """The two cell sources say the same, except for round-off: numbers below ROUND_OFF in both, and
    figures whose pixels differ by a level or two."""
    images_a, images_b = IMAGE.findall(committed), IMAGE.findall(built)
    if len(images_a) != len(images_b) or not all(map(same_image, images_a, images_b)):
        return False
    text_a, text_b = IMAGE.sub("IMAGE", committed), IMAGE.sub("IMAGE", built)
    numbers_a, numbers_b = NUMBER.findall(text_a), NUMBER.findall(text_b)
    if NUMBER.split(text_a) != NUMBER.split(text_b) or len(numbers_a) != len(numbers_b):
        return False
    pairs = zip(numbers_a, numbers_b, strict=True)
    return all(x == y or max(abs(float(x)), abs(float(y))) < ROUND_OFF for x, y in pairs)


def test_round_off_is_the_only_difference_allowed():
    assert same_up_to_round_off("agree to within 1.1e-16, so", "agree to within 2.2e-16, so")
    assert not same_up_to_round_off("agree to within 1.1e-6, so", "agree to within 2.2e-6, so")
    assert not same_up_to_round_off("at position 257", "at position 256")
    assert not same_up_to_round_off("agree to within 1.1e-16, so", "agree to within 1.1e-16; so")


def test_committed_plain_edition_is_what_the_build_made(site):
    """Colab and Binder open the commit: the plain edition must be committed as `make book` writes it.

    Built on another CPU, the last digits of round-off and the antialiasing of a figure may differ (numpy's
    and torch's kernels differ between processors); nothing else may."""
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode:
        pytest.skip("not a git checkout: the committed edition cannot be compared")
    changed = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "notebooks"],
                             capture_output=True, text=True, check=True).stdout.splitlines()
    stale = []
    for line in changed:
        status, name = line[:2], line[3:]
        committed = subprocess.run(["git", "-C", str(ROOT), "show", f"HEAD:{name}"], capture_output=True, text=True)
        if status.strip() != "M" or committed.returncode:
            stale.append(line)
            continue
        cells_a = nbformat.reads(committed.stdout, as_version=4).cells
        cells_b = nbformat.read(str(ROOT / name), as_version=4).cells
        same = len(cells_a) == len(cells_b) and all(
            a.cell_type == b.cell_type and same_up_to_round_off(a.source, b.source)
            for a, b in zip(cells_a, cells_b, strict=True))
        if not same:
            stale.append(line)
    assert stale == [], "the plain edition differs from the commit; run `make book` and commit notebooks/:\n" + \
        "\n".join(stale)
