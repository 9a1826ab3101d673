"""The configuration of a slider in its guide (Flores et al., J. Comput. Nonlinear Dyn. 3, 2008):
which of a translational clearance joint's corners touch the guide
(:mod:`solver.model.translational_rules`).

A corner touches when its pair's gap is negative (a penetration).  The configurations, by
their codes: 0 free flight (no corner touches), 1 one corner, 2 two adjacent corners (the two
corners of one side of the slider on the guide's surface on that side: the slider lies flat
on it), 3 two opposite corners (a lower corner on the lower surface and an upper corner on
the upper one; always diagonally opposite, since one end of the slider, h high, cannot span
the guide, h + 2c wide), 4 three or four corners.
"""
from __future__ import annotations

from collections.abc import Sequence

#: names of the configurations, by code
CONFIGURATIONS = ("free", "one corner", "two adjacent corners", "two opposite corners", "three or four corners")


def configuration(gaps: Sequence[float]) -> int:
    """The configuration code of the corners' gaps (m), in the order of
    :data:`solver.model.translational_rules.CORNERS` (two lower corners, then two upper).

    >>> configuration([1e-4, 1e-4, 2e-4, 2e-4]), configuration([-1e-6, -1e-6, 1e-3, 1e-3])
    (0, 2)
    >>> configuration([-1e-6, 1e-4, -1e-6, 1e-4]), configuration([-1e-6, 1e-4, 1e-4, 1e-4])
    (3, 1)
    """
    lower = sum(1 for g in gaps[:2] if g < 0.0)
    upper = sum(1 for g in gaps[2:] if g < 0.0)
    count = lower + upper
    if count <= 1:
        return count
    if count == 2:
        return 2 if lower != 1 else 3
    return 4
