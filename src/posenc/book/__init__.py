"""The book's services: what the chapters and exercises of *Where Words Are* use besides the mathematics.

This layer sits above the idea modules of :mod:`posenc` and may import any of them; no idea module imports
anything from here (an import contract, checked in the test suite).

- :mod:`posenc.book.style`       -- the one figure style, and the figures drawn in more than one chapter
- :mod:`posenc.book.answers`     -- what counts as an answer and when it is right: ``check``, the one function that
                                    every self-check of the exercises calls (the self-checks live in the notebooks)
- :mod:`posenc.book.glue`        -- ``glue``: hands computed numbers and figures to the prose (myst-nb)
- :mod:`posenc.book.explorers`   -- the interactive explorers (anywidget)

A chapter's own code (its experiments, its figures) is on its page, where the reader can open it.
"""
