"""The book's figures: the one style (:mod:`posenc.book.plots.style`) and one module per chapter.

A chapter imports its own module, ``from posenc.book.plots import ch04 as plots``, calls
``plots.use_book_style()`` once, and draws each figure with one call. A figure first drawn for an earlier
chapter is imported from that chapter's module.
"""
