"""A notebook's or an assignment's points split by how they are given: autograded, by hand, still pending.

nbgrader keeps for every graded cell an automatic score (None for a written answer it cannot score) and a
manual one (None until someone grades the cell by hand); the cell's score is the manual one when it exists.
A total such as 13/15 hides that two of the fifteen points have not been graded yet; a :class:`Mark` keeps
them apart, so that a grade sheet and a feedback page can say "13/13 autograded, 2 by hand pending".
"""

from __future__ import annotations

from dataclasses import dataclass, field

CHANGED = "assignment changed since graded"  # a row graded before its assignment changed: its old score waits too
REVIEW = {"grader_error", "tampered", CHANGED}  # statuses whose score waits for a person


@dataclass
class Mark:
    """Points summed over graded cells, split by how they were given, and the statuses of the rows summed."""

    auto: float = 0.0          # points autograded, and their maximum
    auto_max: float = 0.0
    hand: float = 0.0          # points graded by hand so far, and their maximum
    hand_max: float = 0.0
    pending: float = 0.0       # points of written answers not graded yet
    statuses: list[str] = field(default_factory=list)

    def add(self, grade) -> None:
        """Count one of nbgrader's ``Grade`` rows: pending while neither score exists, by hand once one does."""
        if grade.auto_score is None and grade.manual_score is None:
            self.pending += grade.max_score
        elif grade.manual_score is None:
            self.auto, self.auto_max = self.auto + grade.score, self.auto_max + grade.max_score
        else:
            self.hand, self.hand_max = self.hand + grade.score, self.hand_max + grade.max_score

    def __add__(self, other: Mark) -> Mark:
        """The points of two rows together (an assignment's notebooks)."""
        return Mark(self.auto + other.auto, self.auto_max + other.auto_max, self.hand + other.hand,
                    self.hand_max + other.hand_max, self.pending + other.pending, self.statuses + other.statuses)

    @property
    def score(self) -> float:
        """The points given so far, autograded and by hand."""
        return self.auto + self.hand

    @property
    def max_score(self) -> float:
        return self.auto_max + self.hand_max + self.pending

    @property
    def final(self) -> bool:
        """Whether every point is given and no row waits for a review."""
        return not self.pending and not REVIEW & set(self.statuses)

    @property
    def cell(self) -> str:
        """The score, once final; else empty (no grade)."""
        return f"{self.score:g}" if self.final else ""

    @property
    def summary(self) -> str:
        """``15/15``, or what is still open: ``13/13 autograded, 2 by hand pending``."""
        if REVIEW & set(self.statuses):
            return f"waits for a review by the instructor ({', '.join(sorted(REVIEW & set(self.statuses)))})"
        if self.final:
            return f"{self.score:g}/{self.max_score:g}"
        return ", ".join([f"{self.auto:g}/{self.auto_max:g} autograded"]
                         + ([f"{self.hand:g}/{self.hand_max:g} by hand"] if self.hand_max else [])
                         + [f"{self.pending:g} by hand pending"])
