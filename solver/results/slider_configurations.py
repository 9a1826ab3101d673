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

import numpy as np

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
    return int(configurations(np.asarray([gaps], dtype=float))[0])


def configurations(gaps: np.ndarray) -> np.ndarray:
    """The configuration codes (F,) of frames' corner gaps (F, 4), m."""
    lower = np.count_nonzero(gaps[:, :2] < 0.0, axis=1)
    upper = np.count_nonzero(gaps[:, 2:] < 0.0, axis=1)
    count = lower + upper
    code = np.where(count <= 1, count, 4)
    return np.where(count == 2, np.where(lower == 1, 3, 2), code)


def configuration_periods(times: np.ndarray, codes: np.ndarray) -> list[dict]:
    """Runs of frames in one configuration: its code and name, first and last frame's time (s),
    frames."""
    edges = np.flatnonzero(np.diff(codes)) + 1
    starts, ends = np.concatenate([[0], edges]), np.concatenate([edges, [len(codes)]])
    return [{"configuration": int(codes[a]), "name": CONFIGURATIONS[codes[a]], "start_s": float(times[a]),
             "end_s": float(times[b - 1]), "frames": int(b - a)} for a, b in zip(starts, ends) if b > a]
