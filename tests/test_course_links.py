"""One address, one release: the repository's address is written only in _config.yml, the release only in
pyproject.toml, and every install cell, launch link and exercise link is made from them.

The generated files that are committed (install cells, CITATION.cff's release lines, exercises/release/) are
checked against what tools/course_links.py and nbgrader make. The plain
edition is not committed: its links open the release's edition branch (tools/publish_edition.py pushes it).
"""

from __future__ import annotations

import re
import subprocess

import course_links
import pytest
import release
from conftest import ROOT, repository_files

import posenc

COURSE = course_links.Course.of(ROOT)


def test_every_install_cell_installs_this_release_and_the_citation_names_it():
    """(What the cell installs, for any address: the fork test below.)"""
    assert course_links.stale_files(ROOT) == [], "run `make book` (tools/course_links.py) to update them"


def test_a_fork_changes_one_line_and_every_link_follows(tmp_path):
    for name in ("_config.yml", "pyproject.toml"):
        (tmp_path / name).write_text((ROOT / name).read_text().replace(COURSE.slug, "a-fork/its-book"))
    fork = course_links.Course.of(tmp_path)
    for path, ref in (("notebooks/chapters/x.ipynb", f"plain-v{COURSE.version}"),  # the plain edition's branch
                      ("exercises/release/a/b.ipynb", f"v{COURSE.version}")):  # a committed notebook: the tag
        assert fork.colab(path) == f"https://colab.research.google.com/github/a-fork/its-book/blob/{ref}/{path}"
        escaped = path.replace("/", "%2F")
        assert fork.binder(path) == f"https://mybinder.org/v2/gh/a-fork/its-book/{ref}?urlpath=lab%2Ftree%2F{escaped}"
    assert fork.install_target() == f"posenc @ git+https://github.com/a-fork/its-book@v{COURSE.version}"


RELEASE_NAME = re.compile(r"(?<![\w.])v(\d+\.\d+\.\d+)(?![\w.])")


def test_every_release_a_committed_file_names_is_the_one_in_pyproject():
    """A link to an older tag is a link to a release whose notebooks differ (or, in a fork, do not exist)."""
    older = {}
    for name in repository_files():
        if name.startswith("tests/"):  # the tests name made-up releases on purpose
            continue
        try:
            found = set(RELEASE_NAME.findall((ROOT / name).read_text(encoding="utf-8"))) - {COURSE.version}
        except UnicodeDecodeError:
            continue
        if found:
            older[name] = sorted(found)
    assert older == {}, f"these files name a release other than v{COURSE.version}: {older}; run `make exercises book`"


def test_a_release_is_refused_with_its_reason(tmp_path):
    assert "MAJOR.MINOR.PATCH" in release.problem(ROOT, "v1.2")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "tag", "v9.9.9"], check=True)
    assert "exists already" in release.problem(clone, "9.9.9")
    (clone / "README.md").write_text("changed")
    assert "uncommitted changes" in release.problem(clone, "9.9.10")


@pytest.mark.grader
def test_a_forks_release_ends_with_the_tag_that_its_links_name(tmp_path):
    """The fork's steps: edit the address in _config.yml, commit, `make release VERSION=<its version>`; the old address
    is then in no file of the release, the files it regenerates (install cells, hand-in cells, CITATION.cff, the
    student copies) included."""
    fork = tmp_path / "fork"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(fork)], check=True)
    for key, value in (("user.name", "a fork"), ("user.email", "fork@example.org")):
        subprocess.run(["git", "-C", str(fork), "config", key, value], check=True)
    config = fork / "_config.yml"
    config.write_text(config.read_text().replace(COURSE.url, "https://github.com/a-fork/its-book"))
    subprocess.run(["git", "-C", str(fork), "commit", "--quiet", "-am", "our address"], check=True)
    tag = release.release(fork, COURSE.version)
    shown = subprocess.run(["git", "-C", str(fork), "status", "--porcelain"], capture_output=True, text=True).stdout
    assert (tag, shown) == (f"v{COURSE.version}", "")
    still = subprocess.run(["git", "-C", str(fork), "grep", "-l", COURSE.slug, tag], capture_output=True, text=True)
    assert still.stdout == "", "files of the release that name the old address"  # the student copies included
    student = f"{tag}:exercises/release/ch01_attention/attention.ipynb"
    shown = subprocess.run(["git", "-C", str(fork), "show", student], capture_output=True, text=True, check=True)
    assert f"a-fork/its-book@{tag}" in shown.stdout


def test_a_bad_address_is_refused_with_its_value(tmp_path):
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (tmp_path / "_config.yml").write_text("repository:\n  url: git@github.com:someone/book.git\n")
    with pytest.raises(ValueError, match="repository.url must be https://github.com/<owner>/<name>, got 'git@"):
        course_links.Course.of(tmp_path)


def test_the_exercises_page_says_how_to_hand_in_as_the_notebooks_do():
    """The source notebooks' hand-in cells are written by tools/course_links.py (stale_files, above), and the
    student versions are what nbgrader makes of them (tests/test_exercises.py)."""
    assert course_links.HAND_IN in (ROOT / "appendix" / "exercises.md").read_text(encoding="utf-8")


def test_licences_and_citation_are_stated():
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert "CC BY 4.0" in (ROOT / "LICENSE").read_text()
    citation = __import__("yaml").safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["cff-version"] == "1.2.0" and citation["title"] and citation["authors"]  # its release: above


def test_site_footer_states_the_licences(site):
    for page in ("intro.html", "chapters/01_attention_sees_a_set.html"):
        html = (site / page).read_text(encoding="utf-8")
        assert "https://creativecommons.org/licenses/by/4.0/" in html and "CC BY 4.0" in html, page


def test_the_package_reports_the_release_of_pyproject():
    assert posenc.__version__ == COURSE.version
