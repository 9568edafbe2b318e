"""Every example in the package's docstrings runs and prints what it shows."""

import doctest
import importlib
import pkgutil

import pytest

import posenc

MODULES = sorted(name for _, name, _ in pkgutil.walk_packages(posenc.__path__, "posenc.")
                 if not name.startswith("posenc.book.explorers"))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name):
    failures, _ = doctest.testmod(importlib.import_module(name), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert failures == 0
