"""What checking a claim returns, and the tolerances every chapter's checks share.

A check runs its claim on concrete (seeded, random) inputs and returns a :class:`ClaimResult`: what was
claimed, the largest deviation measured between the two sides, the tolerance it is held to and whether it
holds. Chapters display the result next to the theorem; tests assert ``holds`` over many inputs.
Tolerances are a small multiple of float64 round-off for the sizes involved.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from posenc.geometry import rotation_2d

TOL = 1e-12  # float64 round-off of a few operations on entries of size one
CHANCE = 4.0  # standard errors: how far a statistic of random samples may stray from its expected value


@dataclass(frozen=True)
class ClaimResult:
    """The outcome of checking one claim: ``holds`` is ``max_deviation <= tolerance``."""

    claim: str
    max_deviation: float
    tolerance: float

    @property
    def holds(self) -> bool:
        return bool(self.max_deviation <= self.tolerance)

    def __str__(self) -> str:
        verdict = "holds" if self.holds else "FAILS"
        return f"{self.claim}: max deviation {self.max_deviation:.1e} (tolerance {self.tolerance:.0e}) -- {verdict}"

    def _repr_html_(self) -> str:
        verdict = "&#10003; holds" if self.holds else "&#10007; fails"
        return (
            '<table class="claim-check"><tr><th>claim</th><th>max deviation</th><th>tolerance</th><th>verdict</th></tr>'
            f"<tr><td>{self.claim}</td><td>{self.max_deviation:.1e}</td><td>{self.tolerance:.0e}</td>"
            f"<td>{verdict}</td></tr></table>"
        )


def claim_result(claim: str, deviations, tolerance: float = TOL) -> ClaimResult:
    """The result of ``claim`` whose two sides differ by ``deviations`` (any shape): its largest magnitude."""
    return ClaimResult(claim, float(np.max(np.abs(deviations))), tolerance)


def angle_tolerance(*positions: float) -> float:
    """Round-off allowed when angles reach ``|position|`` radians: float64 keeps about 16 digits of each
    angle, so the absolute error of a cosine grows in proportion to the angle."""
    return 1e-13 * (1.0 + sum(abs(float(p)) for p in positions))


def plane_rotations(angles) -> np.ndarray:
    """A stack of 2x2 rotations, shape ``(len(angles), 2, 2)``."""
    return np.moveaxis(rotation_2d(np.asarray(angles, dtype=np.float64)), -1, 0)
