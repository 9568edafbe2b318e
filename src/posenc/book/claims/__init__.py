"""One checking function per claim of the lecture, in one module per chapter (``ch01`` ... ``ch10``).

A chapter imports its own module, ``from posenc.book.claims import ch04 as claims``, and runs the check of
each claim in the cell after the theorem; :mod:`posenc.book.claims.result` holds what a check returns.
A claim first checked in an earlier chapter is imported from that chapter's module.
"""
