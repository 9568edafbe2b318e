"""The PDF edition (`make pdf`, which `make test` runs first; in the site's build folder), read back with poppler's
pdftotext and pdfinfo, and held to the website's numbers. Without a TeX toolchain the tests are skipped (CI: failed).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest
import yaml
from conftest import CHAPTERS, ROOT, SITE, need, soup, toc_files
from pybtex.database import parse_file

CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
PDF = SITE.parent / "latex" / Path(CONFIG["latex"]["latex_documents"]["targetname"]).with_suffix(".pdf").name


@pytest.fixture(scope="module")
def pdf() -> Path:
    need(bool(shutil.which("pdftotext") and shutil.which("pdfinfo")), "no pdftotext/pdfinfo (poppler-utils): "
         "`make pdf` installs them as root on Debian")
    if not PDF.is_file():
        need(bool(shutil.which("xelatex")), f"no xelatex and no {PDF.name}: `make pdf` installs texlive as root on "
             "Debian")
        pytest.fail(f"no {PDF}: run `make pdf` (`make test` does it for you)")
    return PDF


@cache
def pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout


def flat(text: str) -> str:
    """``text`` with every run of whitespace as one space: lines break anywhere in a PDF."""
    return re.sub(r"\s+", " ", text)


def dense(text: str) -> str:
    """``text`` with no whitespace and no hyphens: LaTeX also breaks lines after a hyphen (``1.8e-`` / ``12``),
    and pdftotext drops a hyphen that ends a line (``Transformer-`` / ``XL`` comes out ``TransformerXL``)."""
    return re.sub(r"[\s-]+", "", text)


def test_pdf_is_named_and_titled_from_the_config(pdf):
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True).stdout
    assert re.search(rf"^Title:\s+{re.escape(CONFIG['title'])}$", info, re.MULTILINE), info
    assert CONFIG["title"] in pdf_text(pdf).split("\f")[0]  # pdftotext ends each page with a form feed


def test_every_chapter_and_appendix_is_in_the_pdf_in_order_numbered_as_on_the_site(pdf, site):
    """Lecture chapters keep the site's numbers; appendices, unnumbered on the site, are lettered. The last
    appendix, the bibliography page, becomes LaTeX's own bibliography (see test_the_bibliography_...)."""
    text = flat(pdf_text(pdf))
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    lecture, appendices = ([entry["file"] for entry in part["chapters"]] for part in toc["parts"])
    title = {document: soup(site / f"{document}.html").h1.get_text().strip() for document in lecture + appendices}
    headings = [f"Chapter {number}. {title[chapter]}" for number, chapter in enumerate(lecture, 1)]
    headings += [f"Appendix {letter}. {title[appendix]}"
                 for letter, appendix in zip("ABCDEFGHIJ", appendices[:-1], strict=False)]
    assert title[appendices[-1]] == "Bibliography"
    missing = [heading for heading in headings if heading not in text]
    assert not missing, missing
    positions = [text.index(heading) for heading in headings]
    assert positions == sorted(positions), "the chapters are not in the order of _toc.yml"


def test_no_unresolved_reference_and_no_missing_glyph(pdf):
    text = pdf_text(pdf)
    assert "??" not in text, flat(text[max(text.index("??") - 200, 0):text.index("??") + 100])
    log = pdf.with_suffix(".log").read_text(encoding="utf-8", errors="replace")
    undefined = re.findall(r"(?:Reference|Citation|Hyper reference) `[^']*' on page \d+ undefined", log)
    assert not undefined, undefined
    missing = sorted(set(re.findall(r"Missing character: There is no (.) ", log)))
    assert not missing, f"glyphs missing from the fonts: {missing}"


def test_glued_numbers_are_in_the_pdf(pdf, site):
    text = dense(pdf_text(pdf))
    glued = {
        document: [span.get_text() for span in soup(site / f"{document}.html").select("span.pasted-text")]
        for document in toc_files()
    }
    assert sum(map(len, glued.values())) > 100, "the site has hardly any glued values: is it built?"
    missing = {doc: [v for v in values if dense(v) not in text] for doc, values in glued.items()}
    assert not any(missing.values()), missing


def test_theorem_figure_and_equation_numbers_match_the_site(pdf, site):
    text = flat(pdf_text(pdf))
    for document in toc_files():
        labels = [span.get_text() for span in soup(site / f"{document}.html").select("span.caption-number, span.eqno")]
        numbers = {re.search(r"[A-Z][a-z.]* \d+\.\d+|\(\d+\.\d+\)", label).group() for label in labels}
        for number in sorted(numbers):
            assert number in text, f"{document}: {number!r} is on the site but not in the PDF"


def test_the_bibliography_lists_every_cited_work(pdf):
    text = dense(pdf_text(pdf)).casefold()
    assert "bibliography" in text
    cited = set()
    for path in [*CHAPTERS, *ROOT.glob("appendix/*"), ROOT / "intro.md", ROOT / "glossary.md"]:
        for keys in re.findall(r"\{cite(?::[a-z]+)?\}`([^`]+)`", path.read_text(encoding="utf-8")):
            cited.update(key.strip() for key in keys.split(","))
    entries = parse_file(ROOT / "references.bib").entries
    assert cited and cited <= set(entries), cited - set(entries)
    for key in sorted(cited):
        title = dense(re.sub(r"[{}\\]", "", entries[key].fields["title"])).casefold()
        assert title in text, f"{key}: {title!r} not in the PDF's bibliography"


def test_each_explorer_is_a_still_with_a_link_to_its_page(pdf, site):
    text = dense(pdf_text(pdf))
    for document in toc_files():
        views = len(soup(site / f"{document}.html").find_all("script", type=WIDGET_VIEW))
        url = dense(f"{document}.html")
        stills = len(re.findall(r"Astilloftheexplorer[^:]*:https://[^:]*?" + re.escape(url), text))
        assert stills == views, f"{document}: {views} explorers on the site, {stills} stills linking to it in the PDF"
    assert "Astilloftheexplorer" in text


def test_the_site_links_to_the_pdf(pdf, site):
    copy = site / pdf.name
    assert copy.read_bytes() == pdf.read_bytes(), "the site's PDF is not the one just built"
    links = [a["href"] for a in soup(site / "intro.html").find_all("a", href=True) if a["href"].endswith(".pdf")]
    assert links == [pdf.name]
