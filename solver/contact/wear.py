"""Wear of the bearing of a dry revolute clearance joint: Archard's law (J. F. Archard,
"Contact and rubbing of flat surfaces", J. Appl. Phys. 24, 1953), as Flores and co-workers
apply it to clearance joints (no seed; the equation numbers (W1)-(W3) are this module's).

**Archard (W1).**  Sliding a distance ds under the normal force F_n wears away the volume

    dV = k F_n ds / H,

k the dimensionless wear coefficient, H the hardness of the softer surface (Pa).  Over a
step the worn volume is the trapezoidal rule's, dV = (k/H) ½ (F_n |v_t|₀ + F_n |v_t|₁) h,
with v_t the sliding speed at the contact point (the spins of journal and bearing included,
:mod:`solver.system.contact_pairs`).

**Depth around the bearing (W2).**  The bearing's circumference is cut into ``bins`` equal
arcs Δθ = 2π/bins, measured in the bearing's own frame from its +x axis at the start (the
bearing's rotation since then taken off).  A step's volume is worn from the arc under the
contact point at the step's end, over the bearing's length L: the depth there grows by

    dh = dV / (R_b Δθ L) = k p ds / H,     p = F_n / (R_b Δθ L),

the pressure spread over the arc.  So the depths integrated over circumference and length,
Σ h R_b Δθ L, are Archard's volume k Σ F_n ds / H (W3), whatever the number of bins.
"""
from __future__ import annotations

import math

import numpy as np


class BearingWear:
    """The worn depth (m) around the bearing of one clearance pair, by angle."""

    def __init__(self, pair, coefficient: float, hardness: float, bins: int, length: float):
        self.k_over_H = coefficient / hardness  # 1/Pa
        self.radius = pair.params["radius"]  # R_b, m
        self.length = length  # L, m
        self.rotation = pair.target_rotation  # the bearing's rotation dof (-1: it does not turn)
        self.width = 2.0 * math.pi / bins  # Δθ, rad
        self.depth = np.zeros(bins)
        self._start: float | None = None  # the bearing's angle at the start, rad

    def book(self, before, after, q: np.ndarray, h: float) -> None:
        """Wear over an accepted step of ``h`` (s) between the pair's forces ``before`` and
        ``after`` (:class:`~solver.contact.pair_forces.PairForces`), ``q`` the step's end (W1, W2)."""
        turned = 0.0
        if self.rotation >= 0:
            if self._start is None:
                self._start = float(q[self.rotation])
            turned = float(q[self.rotation]) - self._start
        volume = self.k_over_H * 0.5 * h * (before.F_n * abs(before.v_t) + after.F_n * abs(after.v_t))
        if volume <= 0.0:
            return
        nx, ny = after.geometry.normal  # out of the bearing's surface, towards its centre
        angle = (math.atan2(-ny, -nx) - turned) % (2.0 * math.pi)
        self.depth[int(angle / self.width) % len(self.depth)] += volume / (self.radius * self.width * self.length)

    def table(self) -> dict[str, list[float]]:
        """``angle_deg`` (the middle of each arc, degrees) and ``depth_m``."""
        angles = np.degrees((np.arange(len(self.depth)) + 0.5) * self.width)
        return {"angle_deg": angles.tolist(), "depth_m": self.depth.tolist()}

    def volume(self) -> float:
        """The worn volume, Σ h R_b Δθ L (m³, W3)."""
        return float(self.depth.sum() * self.radius * self.width * self.length)


def wear_of(pair) -> BearingWear | None:
    """The wear of a clearance pair whose model has ``wear`` (None: no wear booked)."""
    wear = pair.model.get("wear")
    if wear is None or pair.kind != "circle":
        return None
    return BearingWear(pair, wear["coefficient"], wear["hardness"], int(wear["bins"]), pair.model["length"])
