"""The one compiled piece of posenc: the half layout's one-pass kernel (src/posenc/_halves.c).

Everything else is in pyproject.toml. The extension is optional: where it cannot be compiled (no C compiler),
the package installs without it and apply_rope's half layout falls back to numpy or torch operations.
"""

import sys

from setuptools import Extension, setup

# Products are rounded before the sum (no fused multiply-add), as numpy rounds them; MSVC does not contract.
FLAGS = [] if sys.platform == "win32" else ["-O3", "-ffp-contract=off"]

setup(ext_modules=[Extension("posenc._halves", ["src/posenc/_halves.c"], extra_compile_args=FLAGS, optional=True)])
