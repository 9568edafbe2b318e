"""Editorial checks of the chapters: their order in the table of contents, the notation, the length of cells
and chapters, code shown from the package, alt texts. No test here pins a sentence of the prose."""

from __future__ import annotations

import json
import re

import pytest
from conftest import CHAPTERS, ROOT, toc_files

NAMES_WITH_NUMBERS = re.compile(r"\b[A-Za-z]+\d+\b|Llama \d[\d.]*(?:(?:, | and )\d[\d.]*)*")  # bfloat16, Llama 3.1


def cells(path, kind: str) -> list[str]:
    return ["".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]
            if c["cell_type"] == kind]


# ---- the table of contents ----


def test_the_chapters_are_in_the_table_of_contents_in_their_order():
    listed = [name for name in toc_files() if name.startswith("chapters/")]
    assert listed == [f"chapters/{path.stem}" for path in CHAPTERS]


def test_every_chapter_and_test_file_a_page_names_exists():
    pages = [*CHAPTERS, ROOT / "_toc.yml", *ROOT.glob("*.md"), *(ROOT / "appendix").glob("*.*")]
    named = {(page.name, name) for page in pages
             for name in re.findall(r"\bchapters/\d\d_\w+|\btests/[\w/]+\.py\b", page.read_text(encoding="utf-8"))}
    assert {name.split("/")[0] for _, name in named} == {"chapters", "tests"}, "a pattern has gone stale"
    missing = [(page, name) for page, name in sorted(named)
               if not (ROOT / (name if name.endswith(".py") else f"{name}.ipynb")).is_file()]
    assert missing == []


# ---- lengths, notation, alt texts ----


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_chapter_prose_is_under_4000_words_in_markdown_cells_of_at_most_40_lines(path):
    prose = cells(path, "markdown")
    assert sum(len(text.split()) for text in prose) <= 4000
    assert max(len(text.splitlines()) for text in prose) <= 40, [len(text.splitlines()) for text in prose]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_positions_position_vectors_and_the_imaginary_unit_follow_the_notation_page(path):
    prose = "\n".join(cells(path, "markdown"))
    assert not re.search(r"\bp_[mnp]\b", prose), "a position vector is e_p (learned) or PE(p) (sinusoidal)"
    assert "PE}(q)" not in prose and "PE(q)" not in prose, "q is a query vector, never a position"
    assert "X \\in \\mathbb{R}^{n" not in prose, "a sequence has N tokens"
    assert not re.search(r"\\mathrm\s*\{?\s*i\b", prose), "the imaginary unit is $i$, as appendix/notation.md writes it"


def test_the_explorers_labels_use_the_notation_pages_letters():
    """In the explorers too, q is a query vector and i the imaginary unit: another position is n, and a column of
    the sinusoidal table is a dimension without a letter."""
    sources = [*(ROOT / "src" / "posenc" / "book" / "explorers").glob("*.js"),
               ROOT / "src" / "posenc" / "book" / "explorers" / "stills.py", ROOT / "appendix" / "explorers.ipynb"]
    found = [f"{path.name}: {m.group(0)}" for path in sources
             for m in re.finditer(r"position q\b|angles? q\b|PE\(q\)|every q\b|dimension \$?i\b", path.read_text())]
    assert found == []


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_figure_alt_texts_carry_no_typed_numbers(path):
    """A number in an alt text would be typed by hand; names that hold digits (bfloat16, Llama 3.1) are not numbers."""
    for text in cells(path, "markdown"):
        for alt in re.findall(r"^:alt: (.*)$", text, re.M):
            assert not re.search(r"\d", NAMES_WITH_NUMBERS.sub("", alt)), f"alt text with a typed number: {alt}"


# ---- the notation page: one letter, one meaning ----

NOTATION = ROOT / "appendix" / "notation.md"
MATH_BLOCK = re.compile(r"^```+\{math\}[^\n]*\n(.*?)^```+", re.S | re.M)
GREEK = re.compile(r"\\((?:var)?(?:alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|xi|pi"
                   r"|rho|sigma|tau|upsilon|phi|chi|psi|omega)|Gamma|Delta|Theta|Lambda|Xi|Pi|Sigma|Upsilon|Phi|Psi"
                   r"|Omega|ell)(?![A-Za-z])")
NAMES = re.compile(r"\\(?:text|operatorname|mathrm|texttt|mathbb|label|begin|end)\{[^{}]*\}|^:label:.*$", re.M)


def math_of(markdown_text: str) -> list[str]:
    """The LaTeX of every formula in a Markdown text: ``{math}`` blocks, ``$$ ... $$`` and ``$ ... $``."""
    blocks = MATH_BLOCK.findall(markdown_text)
    rest = re.sub(r"`[^`\n]*`", "", MATH_BLOCK.sub("", markdown_text))  # code spans hold no math
    return blocks + [a or b for a, b in re.findall(r"\$\$(.*?)\$\$|\$([^$]+)\$", rest, re.S)]


def letters(latex: str) -> set[str]:
    """The single-letter symbols of a formula, Latin or Greek (``\\theta``); names in ``\\text{}`` and the like,
    and commands such as ``\\cos``, are not letters."""
    latex = NAMES.sub("", latex)
    greek = {f"\\{name}" for name in GREEK.findall(latex)}
    return greek | set(re.findall(r"(?<![A-Za-z\\])[A-Za-z](?![A-Za-z])", re.sub(r"\\[A-Za-z]+", " ", latex)))


def notation_rows(page: str) -> list[str]:
    """The Symbol column of the notation table, one cell per row."""
    table = page.split("| Symbol | Meaning | First used |\n|---|---|---|\n")[1].split("\n\n")[0]
    return [row.split(" | ")[0].removeprefix("| ") for row in table.splitlines()]


def symbols(cell: str) -> list[str]:
    """The symbols of one Symbol cell: its formulas split at top-level commas (and a bracketed pair into its
    members), without spaces."""
    found = []
    for formula in math_of(cell):
        depth, start = 0, 0
        for i, char in enumerate(formula + ","):
            depth += (char in "({[") - (char in ")}]")
            if char == "," and depth == 0:
                found.append(formula[start:i].replace(" ", ""))
                start = i + 1
    pairs = [s[1:-1].split(",") for s in found if s.startswith("(") and s.endswith(")")]
    return [s for s in found if not (s.startswith("(") and s.endswith(")"))] + [m for pair in pairs for m in pair]


def letter_of(symbol: str) -> tuple[str, bool] | None:
    """The letter a symbol is written with, and whether it stands bare; ``None`` for a name (``\\mathrm{PE}``,
    ``\\text{bucket}``) or a decorated letter (``\\tilde\\theta``). A prime or a subscript in words
    (``L'``, ``N_{\\max}``, ``d_{\\text{model}}``) makes a symbol of its own."""
    head = re.match(r"(\\[A-Za-z]+|[A-Za-z])('?)(.*)$", symbol)
    if head is None or (head.group(1).startswith("\\") and not GREEK.fullmatch(head.group(1))):
        return None
    letter, prime, rest = head.groups()
    if prime or rest[:1] not in ("", "_", "^", "(") or re.match(r"_\{?\\(?:max|min|text|mathrm)", rest):
        return None  # a symbol of its own, or an expression such as n - m
    return letter, rest == ""


def letters_in_two_rows(cells: list[str]) -> list[str]:
    """Letters that stand bare in one row of the table and are written in another, unless either row says
    how the two are told apart ("(as ...)")."""
    rows = [{letter_of(s) for s in symbols(cell)} - {None} for cell in cells if "(as " not in cell]
    bare = [{letter for letter, alone in row if alone} for row in rows]
    used = [{letter for letter, _ in row} for row in rows]
    return sorted({letter for i, mine in enumerate(bare) for j, theirs in enumerate(used) if i != j
                   for letter in mine & theirs})


ROWS = notation_rows(NOTATION.read_text(encoding="utf-8"))


def test_no_symbol_appears_twice_in_the_notation_table():
    found = [s for cell in ROWS for s in symbols(cell)]
    assert len(found) > 60
    assert sorted(s for s in set(found) if found.count(s) > 1) == []


def test_no_letter_of_the_notation_table_stands_for_two_things():
    assert letters_in_two_rows(ROWS) == []


def test_the_notation_checks_catch_a_letter_that_means_two_things():
    """The clash the first edition had: h for the profile's coefficients and for the row of a patch."""
    assert letters_in_two_rows(["$h_j$", "$(h, w)$"]) == ["h"]
    assert letters_in_two_rows(["$h_j$", "$\\mu_h$, $B^{(h)}$"]) == []  # an index is not a bare letter
    assert letters_in_two_rows(["$s_{mn}$, $S$", "$s$ (as a factor)"]) == []
    assert sorted(symbols("$W_Q, W_K$, $(h, w)$")) == ["W_K", "W_Q", "h", "w"]
    assert letters("\\text{bucket}(D) + \\mu_\\tau\\cos\\alpha + \\ell") == {"D", "\\mu", "\\tau", "\\alpha", "\\ell"}


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_letter_in_a_chapters_math_is_on_the_notation_page(path):
    listed = {letter for cell in ROWS for formula in math_of(cell) for letter in letters(formula)}
    used = {letter for text in cells(path, "markdown") for formula in math_of(text) for letter in letters(formula)}
    assert used, "no formula found"
    assert sorted(used - listed) == [], "add the symbol to appendix/notation.md, or use one listed there"


# ---- code on the page ----


@pytest.mark.parametrize(("number", "module", "functions"), [
    ("03", "sinusoidal.py", ["frequencies", "sinusoidal_table"]),
    ("04", "rotary.py", ["_rotate_pairs"]),
])
def test_core_code_is_shown_from_the_package(number, module, functions):
    """The lesson's core functions are included from the package, so that page and package cannot drift (an
    include of a function that does not exist fails the strict build)."""
    page = "\n".join(cells(next(p for p in CHAPTERS if p.name.startswith(number)), "markdown"))
    includes = re.findall(r"```\{literalinclude\} \.\./src/posenc/(\w+\.py)\n:pyobject: (\w+)", page)
    assert [(module, name) for name in functions if (module, name) not in includes] == []
