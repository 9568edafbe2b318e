#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image on its Ubuntu base image (this zip
# comes from `make gradescope`, that is python -m posenc_grader.gradescope). It installs the grading environment
# of `make grade` into /opt/posenc-grader, outside /autograder/source so that the student's kernel may read it:
# the grader's lock (requirements.txt: requirements/grader.txt without its two editable lines), then posenc and
# posenc-grader of this release (wheels/). Then it prepares the course once (nbgrader generate_assignment).
set -euo pipefail
cd /autograder/source
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# The lock needs Python 3.11 or newer: Ubuntu 22.04 offers python3.11 beside its own 3.10; 24.04's python3 is 3.12.
if apt-cache show python3.11-venv >/dev/null 2>&1; then python=python3.11; else python=python3; fi
# bubblewrap: the sandbox of `make grade`, used wherever the container lets it make namespaces (see run_autograder)
apt-get install -y -qq --no-install-recommends "$python" "$python-venv" bubblewrap util-linux ca-certificates
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || { echo "setup.sh: the grading environment needs Python 3.11 or newer; choose an Ubuntu 22.04 or 24.04 base image" >&2; exit 1; }
"$python" -m venv /opt/posenc-grader
# Exactly the lock (--no-deps: nothing is resolved anew); torch's CPU build from PyTorch's index, where
# torch==2.x.y takes the +cpu wheel (PyPI's would bring gigabytes of CUDA libraries).
/opt/posenc-grader/bin/python -m pip install --quiet --no-cache-dir --no-deps \
  --index-url https://download.pytorch.org/whl/cpu --extra-index-url https://pypi.org/simple \
  --requirement requirements.txt wheels/*.whl
/opt/posenc-grader/bin/python -m pip check
/opt/posenc-grader/bin/python -m posenc_grader.gradescope --setup /autograder/source
