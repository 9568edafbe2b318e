"""The notebooks run where students run them: with Colab's preinstalled packages, and in Binder's image.

Each environment is a fresh venv, made once and cached under ``_build/`` (keyed on its requirement lines):

- **Colab**: Colab's versions (2026-08) of its numeric and widget packages (``COLAB``; its torch and Python
  do not exist on these machines). The package is installed by the install cell itself, from a local clone
  tagged with the release, and must leave Colab's packages as they were. Every notebook a launch button opens
  runs top to bottom in a kernel of it, outside any repository: the plain edition, and every student notebook
  with the model answers filled in (the blank ones stop, by design, at ``raise NotImplementedError()``).
- **Binder**: ``binder/requirements.txt`` (index lines dropped: the CPU torch wheel is local here), then
  ``binder/postBuild``; no book-building, test or grading tool. It pins the versions the build ran every
  chapter with, and the Colab run shows that the notebooks need nothing more; what Binder could still lack is
  checked directly: every import statement of the notebooks runs in its image (its widgets are the build's).
"""

from __future__ import annotations

import ast
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

import course_links
import nbformat
import pytest
from conftest import ROOT, pins, repository_files

from posenc_grader import samples

pytestmark = pytest.mark.venv

COURSE = course_links.Course.of(ROOT)
COLAB = {"numpy": "2.1.3", "matplotlib": "3.10.0", "ipywidgets": "7.7.1", "anywidget": "0.9.21"}
COLAB_TORCH = "torch==2.13.0"  # Colab has 2.11 (CPU); 2.13.0 is the only torch on these machines
STUDENT_TOOLS_ABSENT = ("jupyter-book", "sphinx", "pytest", "nbgrader", "playwright", "ruff", "hypothesis")


def environment(folder: Path, requirements: list[str]) -> Path:
    """The python of a venv at ``folder`` with ``requirements`` (and ipykernel) installed; made only when
    ``folder`` does not hold one made from the same lines. Installed as the Makefile installs its locks: by the pip
    it pins (the tests' own, which installs itself too), not the slower one venv brings, without byte-compiling (a
    module is compiled when a kernel first imports it)."""
    lines = [f"pip=={metadata.version('pip')}", *requirements, "ipykernel"]
    stamp = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    python = folder / "bin" / "python"
    if (folder / ".requirements.sha256").is_file() and (folder / ".requirements.sha256").read_text() == stamp:
        return python
    shutil.rmtree(folder, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-compile", *lines],
                   check=True)
    (folder / ".requirements.sha256").write_text(stamp)
    return python


def installed_versions(python: Path, names: list[str]) -> dict[str, str]:
    code = "import importlib.metadata as m, json, sys\nprint(json.dumps({n: m.version(n) for n in sys.argv[1:]}))"
    result = subprocess.run([str(python), "-c", code, *names], check=True, capture_output=True, text=True)
    return json.loads(result.stdout)


def run_notebook(notebook: nbformat.NotebookNode, python: Path, cwd: Path) -> nbformat.NotebookNode:
    """Execute ``notebook`` in a kernel started by ``python`` (working directory ``cwd``; the runner, nbclient,
    stays in this environment); return it with its outputs. A cell that raises stops the run with nbclient's
    ``CellExecutionError``, which names the cell."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    with tempfile.TemporaryDirectory() as specs:
        (Path(specs) / "student").mkdir()
        (Path(specs) / "student" / "kernel.json").write_text(json.dumps({
            "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "student", "language": "python"}))
        manager = KernelManager(kernel_name="student", kernel_spec_manager=KernelSpecManager(kernel_dirs=[specs]))
        client = NotebookClient(notebook, km=manager, timeout=600, shutdown_kernel="immediate",
                                resources={"metadata": {"path": str(cwd)}})
        client.execute(cleanup_kc=True)  # the kernel ends with its notebook (by default one nbclient is given lives on)
    return notebook


@pytest.fixture(scope="module")
def buttons_open(repo) -> list[tuple[str, nbformat.NotebookNode]]:
    """(name, notebook): the plain edition, and each student notebook with the model answers filled in."""
    found = [(p.relative_to(repo).as_posix(), nbformat.read(str(p), as_version=4))
             for p in sorted((repo / course_links.EDITION_FOLDER).rglob("*.ipynb"))]
    for release in sorted((repo / "exercises" / "release").glob("*/*.ipynb")):
        source = repo / "exercises" / "source" / release.relative_to(repo / "exercises" / "release")
        answers = samples.solutions(nbformat.read(str(source), as_version=4))
        found.append((release.relative_to(repo).as_posix(),
                      samples.filled(nbformat.read(str(release), as_version=4), answers)))
    pages = len(list((ROOT / "chapters").glob("*.ipynb"))) + 1  # every chapter and the explorers page
    assignments = len(list((ROOT / "exercises" / "source").glob("*/*.ipynb")))
    assert len(found) == pages + assignments, [name for name, _ in found]
    return found


@pytest.fixture(scope="module")
def repo(site, tmp_path_factory) -> Path:
    """A git repository of this working tree (tracked and untracked, not ignored) tagged with the release:
    what ``git+https://github.com/...@v<version>`` gives pip on Colab; with the build's plain edition in
    ``notebooks/``, as on the release's edition branch that the launch buttons open."""
    folder = tmp_path_factory.mktemp("release")
    for name in repository_files():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, folder / name)
    git = ["git", "-C", str(folder), "-c", "user.name=test", "-c", "user.email=test@example.org"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "release"], ["tag", COURSE.tag]):
        subprocess.run([*git, *command], check=True)
    shutil.copytree(site.parent / course_links.EDITION_FOLDER, folder / course_links.EDITION_FOLDER)
    return folder


@pytest.fixture(scope="module")
def colab(repo) -> Path:
    """Colab's packages in a fresh venv, then the package installed by the install cell (URL: the clone)."""
    python = environment(
        ROOT / "_build" / "venv-colab", [f"{name}=={version}" for name, version in COLAB.items()] + [COLAB_TORCH])
    subprocess.run([str(python), "-m", "pip", "uninstall", "-q", "-y", "posenc"], check=True)  # a fresh install
    cell = course_links.install_cell_source(COURSE, url=f"file://localhost{repo}")  # pip 23 refuses an empty host
    assert cell == course_links.install_cell_source(COURSE).replace(COURSE.url, f"file://localhost{repo}")
    subprocess.run([str(python), "-c", cell], check=True, cwd=repo.parent)
    return python


def test_the_install_cell_leaves_colabs_packages_alone(colab):
    assert installed_versions(colab, [*COLAB, "posenc"]) == {**COLAB, "posenc": COURSE.version}


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def explorers_on_page(site: Path, name: str) -> int:
    """How many explorers the site's page of the notebook ``name`` shows (none for a student notebook)."""
    folder, _, page = name.partition("/")
    if folder != course_links.EDITION_FOLDER:
        return 0
    return (site / page).with_suffix(".html").read_text("utf-8").count(WIDGET_VIEW)


def test_every_notebook_a_button_opens_runs_with_colabs_packages(colab, buttons_open, site, tmp_path):
    """Each runs top to bottom and shows, with Colab's ipywidgets and anywidget, the explorers its page shows."""
    failed = []
    for name, notebook in buttons_open:
        views = explorers_on_page(site, name)
        try:
            run_notebook(notebook, colab, tmp_path)  # Colab's working directory holds no repository
        except Exception as error:  # noqa: BLE001 -- collect every failing notebook, then report them all
            failed.append(f"{name}: {str(error)[-1500:]}")
            continue
        shown = sum(WIDGET_VIEW in out.get("data", {}) for cell in notebook.cells for out in cell.get("outputs", []))
        if shown != views:
            failed.append(f"{name}: {shown} explorers shown with Colab's packages, {views} on its page")
    assert failed == []


@pytest.fixture(scope="module")
def binder(repo) -> Path:
    """binder/requirements.txt (index lines dropped) in a fresh venv, then binder/postBuild."""
    lines = [line.strip() for line in (ROOT / "binder" / "requirements.txt").read_text().splitlines()
             if line.strip() and not line.lstrip().startswith(("#", "--"))]
    folder = ROOT / "_build" / "venv-binder"
    python = environment(folder, lines)
    subprocess.run([str(python), "-m", "pip", "uninstall", "-q", "-y", "posenc"], check=True)
    env = {"PATH": f"{folder / 'bin'}:/usr/bin:/bin", "HOME": str(repo.parent)}
    subprocess.run(["bash", str(repo / "binder" / "postBuild")], check=True, cwd=repo, env=env)
    return python


def test_binder_image_holds_the_student_packages_and_no_build_tools(binder):
    folder = binder.parent.parent
    versions = installed_versions(binder, ["torch", "numpy", "matplotlib", "ipywidgets", "anywidget",
                                                        "jupyterlab", "posenc"])
    assert versions["torch"].endswith("+cpu") and versions["posenc"] == COURSE.version
    listed = subprocess.run([str(binder), "-m", "pip", "list", "--format=freeze"], check=True,
                            capture_output=True, text=True).stdout.lower()
    assert [tool for tool in STUDENT_TOOLS_ABSENT if f"\n{tool}==" in "\n" + listed] == []
    assert "nvidia" not in listed
    du = subprocess.run(["du", "-sk", str(folder)], check=True, capture_output=True, text=True)  # what the files occupy
    size = int(du.stdout.split()[0]) / 1024
    print(f"binder environment: {size:,.0f} MB")
    assert size < 1580, f"the Binder environment takes {size:,.0f} MB, no less than the 1,580 MB of all the pins"


def test_binder_pins_the_versions_the_book_is_built_with():
    book = pins(ROOT / "requirements" / "book.txt")
    pinned = {name: version.split("+")[0] for name, version in pins(ROOT / "binder" / "requirements.txt").items()}
    assert {"torch", "numpy", "matplotlib", "ipywidgets", "anywidget"} <= pinned.keys()
    assert {name: version for name, version in pinned.items() if book.get(name, version) != version} == {}


RUN_EACH = """
import json, sys
failed = []
for statement in json.loads(sys.argv[1]):
    try:
        exec(statement)
    except ImportError as error:
        failed.append(f"{statement}: {error}")
print(json.dumps(failed))
"""


def test_every_import_of_the_notebooks_runs_in_the_binder_image(binder, buttons_open, tmp_path):
    """Every import statement of the notebooks' code, run on its own: each module and name is in the image."""
    statements = sorted({ast.unparse(node) for _, notebook in buttons_open for cell in notebook.cells
                         if cell.cell_type == "code" for node in ast.walk(ast.parse(cell.source))
                         if isinstance(node, ast.Import) or isinstance(node, ast.ImportFrom) and node.level == 0})
    assert {"numpy", "matplotlib.pyplot", "torch", "posenc.book.explorers"} <= {s.split()[1] for s in statements}
    result = subprocess.run([str(binder), "-c", RUN_EACH, json.dumps(statements)], cwd=tmp_path, check=True,
                            capture_output=True, text=True)
    assert json.loads(result.stdout) == []
