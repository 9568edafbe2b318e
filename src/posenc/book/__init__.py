"""The book's services: what the chapters and exercises of *Where Words Are* use besides the mathematics.

This layer sits above the idea modules of :mod:`posenc` and may import any of them; no idea module imports
anything from here (an import contract, checked in the test suite).

- ``ch01`` ... ``ch11``          -- a chapter's own code, one module per chapter: its figures, and in chapters 2
                                    and 9 the experiment that trains tiny models in the build. The checks of
                                    the chapter's claims are not here: they are on the page.
- :mod:`posenc.book.style`       -- the one figure style every chapter's figures are drawn in
- :mod:`posenc.book.answers`     -- what counts as an answer and when it is right: ``check``, the one function that
                                    every self-check of the exercises calls (the self-checks live in the notebooks)
- :mod:`posenc.book.glue`        -- ``glue``: hands computed numbers and figures to the prose (myst-nb)
- :mod:`posenc.book.explorers`   -- the interactive explorers (anywidget)

A chapter imports its own module, ``from posenc.book import ch04``; a figure first drawn for an earlier chapter
is imported from that chapter's module.
"""
