# The README's two commands are `make book` and `make test`; both set everything up on a fresh clone.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup npm book browser sandbox texlive pdf test publish grade exercises bench bench-site lint clean

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

# tools/course_links.py first: install cells and CITATION.cff follow _config.yml's address and the release
# (pyproject.toml); the build then writes the plain edition that the launch buttons open (notebooks/).
book: setup npm  ## execute every chapter, build the HTML strictly (a warning fails the build) and notebooks/
	$(PY) tools/course_links.py
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

# The grader runs every student kernel in a bubblewrap sandbox (src/posenc_grader/sandbox.py) and refuses to grade
# without one unless told --no-sandbox. As root on Debian (as in CI) it is installed here; with CI=true a failed
# install fails the run, elsewhere the sandbox tests are skipped with a message.
sandbox:  ## install bubblewrap (as root on Debian), the sandbox of the grader
	@if ! command -v bwrap >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap) \
	      || { echo "make: installing bubblewrap failed"; [ "$$CI" != true ]; }; \
	  else echo "make: no bwrap and not root on Debian: grading needs --no-sandbox, its tests are skipped"; fi; fi

# The PDF edition: Jupyter Book's LaTeX builder with xelatex and Debian's texlive. As root on Debian (as in CI)
# the toolchain is installed here (large: texlive-fonts-extra alone is a 509 MB download; it holds bbm.sty,
# which sphinx-jupyterbook-latex's class requires); elsewhere `make pdf` and the PDF tests are skipped with a
# message, except with CI=true, where a missing tool fails the run.
TEXLIVE := texlive-xetex texlive-latex-extra texlive-fonts-recommended texlive-fonts-extra texlive-science \
           latexmk fonts-freefont-otf poppler-utils
HAVE_TEX = command -v xelatex >/dev/null && command -v latexmk >/dev/null && command -v pdftotext >/dev/null \
           && kpsewhich bbm.sty >/dev/null
texlive:  ## install the LaTeX toolchain of `make pdf` (as root on Debian)
	@if ! { $(HAVE_TEX); }; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      $(TEXLIVE) >/dev/null) || { echo "make: installing texlive failed"; [ "$$CI" != true ]; }; \
	  else echo "make: no xelatex/latexmk/pdftotext/bbm.sty and not root on Debian: no PDF; its tests skip"; fi; fi

pdf: setup texlive  ## build the PDF edition _build/latex/where-words-are.pdf and copy it into the site
	@if $(HAVE_TEX); then $(PY) tools/build_pdf.py .; \
	else echo "make: no TeX toolchain: the PDF is not built"; [ "$$CI" != true ]; fi

# The PDF comes first: the HTML build copies it into the site and links to it from the intro page.
test: pdf book browser sandbox  ## the whole suite: package, notebooks, exercises, site (with the browser tests), PDF
	$(PY) -m pytest

# Publish the built site (make book first): _build/html as it is, plus .nojekyll, as the only commit of REMOTE's
# gh-pages branch (a git URL, a remote's name or a path). GitHub Pages then serves it; see .github/workflows/.
# First the plain edition (_build/notebooks, what the launch buttons open) goes to REMOTE's branch plain-v<version>:
# one commit on top of HEAD, HEAD's tree plus notebooks/.
REMOTE ?= origin
publish:  ## push the site to gh-pages and the plain edition to plain-v<version> of REMOTE: make publish REMOTE=url
	$(PY) tools/publish_site.py _build/html "$(REMOTE)"

# Graded exercises (exercises/, an nbgrader course; see appendix/instructor_guide.md).
grade: setup sandbox  ## autograde a class: make grade SUBMISSIONS=dir OUT=dir (SUBMISSIONS/<student>/<assignment>/*.ipynb)
	@test -n "$(SUBMISSIONS)" -a -n "$(OUT)" || { echo "usage: make grade SUBMISSIONS=dir OUT=dir"; exit 2; }
	$(PY) -m posenc_grader "$(SUBMISSIONS)" --out "$(OUT)"

exercises: setup  ## regenerate the student versions exercises/release/ from exercises/source/ (nbgrader)
	$(PY) tools/course_links.py
	$(PY) -m posenc_grader.release

bench: setup  ## time apply_rope against a copy and the reference formulas; refresh the appendix table
	$(PY) benchmarks/rope.py --write benchmarks/results/rope.md

bench-site: book browser  ## Lighthouse (mobile) on every chapter page; refresh benchmarks/results/lighthouse.md
	$(PY) benchmarks/lighthouse.py --write benchmarks/results/lighthouse.md

lint: setup
	$(PY) -m ruff check .

clean:
	rm -rf _build
