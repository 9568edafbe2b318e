# The README's two commands are `make book` and `make test`; both set everything up on a fresh clone.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup npm book browser test publish grade exercises bench bench-site lint clean

$(STAMP): requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --requirement requirements.txt
	touch $(STAMP)

setup: $(STAMP)  ## create .venv and install the pinned dependencies and the posenc package

# The site serves MathJax, require.js, the widget manager and anywidget itself: the build copies them from the
# npm packages that package-lock.json pins (_ext/site_assets.py). As root on Debian (as in CI) npm is installed here.
npm:  ## install Node.js's npm (as root on Debian) and the pinned npm packages (npm ci)
	@if ! command -v npm >/dev/null && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm; fi
	@command -v npm >/dev/null || { echo "make: the book needs npm (Node.js): install it, then run make again"; exit 1; }
	@if [ ! node_modules/.package-lock.json -nt package-lock.json ]; then \
	  npm ci --no-audit --no-fund --loglevel=error; fi

book: setup npm  ## execute every chapter and build the HTML strictly (a warning fails the build)
	$(PY) tools/build_book.py .

# The browser tests (tests/browser) drive Debian's chromium over the built site, refusing every request that
# leaves it. As root on Debian (as in CI) chromium is installed here; elsewhere those tests are skipped with a
# message, except with CI=true, where a missing tool fails the run.
browser: npm  ## install chromium (as root on Debian) for the browser tests
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) \
	      || { echo "make: installing chromium failed"; [ "$$CI" != true ]; }; \
	  else echo "make: no /usr/bin/chromium and not root on Debian: the browser tests will be skipped"; fi; fi

test: book browser  ## the whole suite: package, notebooks, exercises, site (with the browser tests)
	$(PY) -m pytest

# Publish the built site (make book first): _build/html as it is, plus .nojekyll, as the only commit of REMOTE's
# gh-pages branch (a git URL, a remote's name or a path). GitHub Pages then serves it; see .github/workflows/.
REMOTE ?= origin
publish:  ## push _build/html to the gh-pages branch of REMOTE (default origin): make publish REMOTE=url
	$(PYTHON) tools/publish_site.py _build/html "$(REMOTE)"

# Graded exercises (exercises/, an nbgrader course; see appendix/instructor_guide.md).
grade: setup  ## autograde a class: make grade SUBMISSIONS=dir OUT=dir (SUBMISSIONS/<student>/<assignment>/*.ipynb)
	@test -n "$(SUBMISSIONS)" -a -n "$(OUT)" || { echo "usage: make grade SUBMISSIONS=dir OUT=dir"; exit 2; }
	$(PY) -m posenc.grading "$(SUBMISSIONS)" --out "$(OUT)"

exercises: setup  ## regenerate the student versions exercises/release/ from exercises/source/ (nbgrader)
	$(PY) -m posenc.grading.release

bench: setup  ## time apply_rope against a copy and the reference formulas; refresh the appendix table
	$(PY) benchmarks/rope.py --write benchmarks/results/rope.md

bench-site: book browser  ## Lighthouse (mobile) on every chapter page; refresh benchmarks/results/lighthouse.md
	$(PY) benchmarks/lighthouse.py --write benchmarks/results/lighthouse.md

lint: setup
	$(PY) -m ruff check .

clean:
	rm -rf _build
