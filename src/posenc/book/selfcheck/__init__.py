r"""Self-checks for the exercise notebooks, one module per chapter: ``selfcheck.check_rotation(rotation)``.

An exercise notebook imports its chapter's module, ``from posenc.book.selfcheck import ch04 as selfcheck``,
and calls the check of each answer below it. A self-check runs the student's function on random inputs
(seeded, so that running it again gives the same verdict), compares the result with the book's own
implementation, and on a mismatch says *what* is wrong and gives a hint, never the expected numbers. It
recognises the usual mistakes (sine and cosine swapped, a clockwise turn, the wrong pair layout, positions
off by one, a missing :math:`\sqrt d`, the base misapplied, ...) by computing those mistakes too, so that
the hint can name the one made (:mod:`posenc.book.selfcheck.checking`).

Self-checks need nothing but numpy and ``posenc``, so they work in Colab and Binder. What kinds of answer
they accept and how close is close enough is the one rule of :mod:`posenc.book.answers`, which the hidden
tests apply too. They are a help for students, not the grade: a patched self-check fools only the student
who patched it, because the hidden tests that nbgrader adds when grading use none of these modules (see the
instructor guide).

A failed check raises :class:`~posenc.book.selfcheck.checking.SelfCheckFailed`, which Jupyter shows as one
line, without a traceback.
"""
