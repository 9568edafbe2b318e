# The README's two commands are `make book` and `make test`; both set everything up on a fresh clone.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup book test bench lint clean

$(STAMP): requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --requirement requirements.txt
	touch $(STAMP)

setup: $(STAMP)  ## create .venv and install the pinned dependencies and the posenc package

book: setup  ## execute every chapter and build the HTML strictly (a warning fails the build)
	$(PY) tools/build_book.py .

test: book  ## the whole suite: package, notebooks, exercises, site
	$(PY) -m pytest

bench: setup  ## time apply_rope against a copy and the reference formulas; refresh the appendix table
	$(PY) benchmarks/rope.py --write benchmarks/results/rope.md

lint: setup
	$(PY) -m ruff check .

clean:
	rm -rf _build
