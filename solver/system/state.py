"""The state of a system at one time: positions, velocities, accelerations and multipliers."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class State:
    """Positions, velocities, accelerations, multipliers (and the pseudo-acceleration) at t."""

    t: float
    q: np.ndarray
    v: np.ndarray
    a: np.ndarray
    lam: np.ndarray
    a_pseudo: np.ndarray | None = None  # generalized-alpha a~ (equal to a for Newmark)
    lam_c: np.ndarray | None = None  # multipliers of the contact rows of the step that ended here, N

    def __post_init__(self) -> None:
        if self.a_pseudo is None:
            self.a_pseudo = self.a.copy()
        if self.lam_c is None:
            self.lam_c = np.zeros(0)
