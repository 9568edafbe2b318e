"""The plain edition (_build/notebooks/): what the Colab and Binder buttons open reads like the website's page.

`make book` writes it next to the site (_ext/plain_edition.py) and `make publish` pushes it to the release's
edition branch (tests/test_publish.py); these tests compare it with the built site: the same glued numbers,
the same theorem, figure and equation numbers, the same figures, the page's code cells, and no MyST syntax
left in any notebook a button opens. Running them is tests/test_student_environments.py's job.
"""

from __future__ import annotations

import re
from pathlib import Path

import course_links
import nbformat
import pytest
from conftest import ROOT, soup, toc_files

COURSE = course_links.Course.of(ROOT)
MYST = {
    "role": re.compile(r"\{[a-z][\w:.-]*\}`"),
    "directive": re.compile(r"^\s*(```+|:::+)\s*\{", re.M),
    "target": re.compile(r"^\s*\([\w:.-]+\)=\s*$", re.M),
    "directive option": re.compile(r"^:(label|name|alt|class|nonumber|tags):", re.M),
    "glue": re.compile(r"glue:(text|figure|math|any)"),
}


def edition_pages() -> list[str]:
    return [f for f in toc_files() if f.startswith("chapters/") or f == "appendix/explorers"]


def edition_folder(site: Path) -> Path:
    return site.parent / course_links.EDITION_FOLDER


def edition(site: Path, page: str) -> nbformat.NotebookNode:
    path = edition_folder(site) / f"{page}.ipynb"
    assert path.is_file(), f"no plain edition {path}: run `make book`"
    return nbformat.read(str(path), as_version=4)


def markdown(notebook: nbformat.NotebookNode) -> str:
    return "\n\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")


def opened_by_buttons() -> list:
    """Every notebook a Colab or Binder button of the site opens, as its launch link names it; the plain
    edition's are built with the site, so they carry its mark (``make check`` leaves them out)."""
    exercises = sorted((ROOT / "exercises" / "release").glob("*/*.ipynb"))
    return [pytest.param(f"{course_links.EDITION_FOLDER}/{page}.ipynb", marks=pytest.mark.site)
            for page in edition_pages()] + [path.relative_to(ROOT).as_posix() for path in exercises]


def test_every_chapter_and_the_explorers_page_has_a_plain_edition(site):
    """(Every chapter is in _toc.yml: tests/test_editorial.py.)"""
    pages = edition_pages()
    assert "appendix/explorers" in pages
    folder = edition_folder(site)
    assert {p.relative_to(folder).with_suffix("").as_posix() for p in folder.rglob("*.ipynb")} == set(pages)


@pytest.mark.parametrize("name", opened_by_buttons())
def test_no_myst_syntax_survives_in_a_notebook_a_button_opens(request, name):
    in_edition = name.startswith(f"{course_links.EDITION_FOLDER}/")  # built: under the build folder
    path = (request.getfixturevalue("site").parent if in_edition else ROOT) / name
    text = markdown(nbformat.read(str(path), as_version=4))
    found = {kind: pattern.findall(text)[:3] for kind, pattern in MYST.items() if pattern.search(text)}
    assert found == {}, f"MyST left in {name}: {found}"


@pytest.mark.parametrize("page", edition_pages())
def test_plain_edition_carries_the_pages_numbers_glued_values_and_figures(site, page):
    html = soup(site / f"{page}.html")
    text = markdown(edition(site, page))
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
    plain = re.sub(r"\\([\\`*_\[\]<>$|#])", r"\1", text)  # Markdown's escapes undone
    assert [value for value in glued if value not in plain] == []
    assert text.count("](data:image/") == len(html.select("figure img"))
    if page.startswith("chapters/"):
        assert boxes or equations, f"{page}: the test found no numbered item to compare"


@pytest.mark.parametrize("page", edition_pages())
def test_plain_edition_has_the_pages_code_cells_without_outputs_folded_where_the_page_hides_them(site, page):
    source = nbformat.read(str(ROOT / f"{page}.ipynb"), as_version=4)
    plain = edition(site, page)
    assert [c.source for c in plain.cells if c.cell_type == "code"] == [
        c.source for c in source.cells if c.cell_type == "code"]
    assert all(not c.outputs and c.execution_count is None for c in plain.cells if c.cell_type == "code")
    hidden = {"remove-cell", "remove-input", "hide-input"}
    assert [bool(hidden & set(c.metadata.get("tags", []))) for c in source.cells if c.cell_type == "code"] == [
        c.metadata.get("jupyter", {}).get("source_hidden", False) for c in plain.cells if c.cell_type == "code"]


def test_links_of_the_plain_edition_point_into_the_website(site):
    text = markdown(edition(site, "chapters/01_attention_sees_a_set"))
    links = re.findall(r"\]\((https?://[^)\s]+)\)", text)
    owner, name = COURSE.slug.split("/")
    site_address = f"https://{owner.lower()}.github.io/{name}/"  # GitHub Pages of the repository
    internal = [u for u in links if u.startswith(site_address)]
    assert any("glossary.html#term-" in u for u in internal), "no term links into the glossary"
    assert any("#equation-" in u for u in internal), "no equation links"
    for url in internal:  # each names a page (and an id) the built site has
        path, _, anchor = url.removeprefix(site_address).partition("#")
        assert (site / path).is_file(), url
        if anchor:
            assert f'id="{anchor}"' in (site / path).read_text(encoding="utf-8"), url
