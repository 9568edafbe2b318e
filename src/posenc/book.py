"""Helpers that let a chapter run the same way in the book build, in Jupyter, Colab and Binder.

:func:`glue` stores a value for the prose (myst-nb's ``{glue:text}`` role) when myst-nb is present, and
otherwise just shows the value, so a chapter opened in Colab runs without the book's build tools.
"""

from __future__ import annotations

try:  # the book build and local Jupyter have myst-nb
    from myst_nb import glue as _myst_glue
except ImportError:  # Colab, Binder without the build tools
    _myst_glue = None


def glue(name: str, value, display: bool = False):
    """Make ``value`` available to the prose as ``{glue:text}`name```; return it for further use."""
    if _myst_glue is not None:
        _myst_glue(name, value, display=display)
    elif display:
        from IPython.display import display as show

        show(value)
    return value
