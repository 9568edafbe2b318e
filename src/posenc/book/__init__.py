"""The book's services: what the chapters and exercises of *Where Words Are* use besides the mathematics.

This layer sits above the idea modules of :mod:`posenc` and may import any of them; no idea module imports
anything from here (an import contract, checked in the test suite). Services are named for what they do
for a chapter, and what serves one chapter lives in that chapter's module, in chapter order:

- :mod:`posenc.book.claims`      -- one checking function per claim: ``claims.ch01`` ... ``claims.ch10``
- :mod:`posenc.book.plots`       -- the one figure style and each chapter's figures: ``plots.ch01`` ...
- :mod:`posenc.book.answers`     -- what counts as an answer and when it is right: ``check``, the one function that
                                    every self-check of the exercises calls (the self-checks live in the notebooks)
- :mod:`posenc.book.experiments` -- the experiments that train tiny models in the build (chapters 2 and 9)
- :mod:`posenc.book.glue`        -- ``glue``: hands computed numbers and figures to the prose (myst-nb)
- :mod:`posenc.book.explorers`   -- the interactive explorers (anywidget)

A chapter imports its own modules under short names, ``from posenc.book.claims import ch04 as claims``;
a service first written for an earlier chapter is imported from that chapter's module.
"""
