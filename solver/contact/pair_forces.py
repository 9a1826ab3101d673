"""The kinematics and forces of one compliant pair at one state (:class:`PairForces`), read by
:class:`~.compliant.CompliantModel` for its step control, history, ledger and frames, and the
sums over a state's pairs: friction power ``Σ -F_t v_t`` (W), contact damping power
``Σ (F_n - F_el) δ̇`` (W) (seed ``001_…txt``, §§2-3), and a circle pair's eccentricity."""
from __future__ import annotations

import math

import numpy as np

from ..system.contact_pairs import ContactGeometry, ContactPair, centre_distance
from .compliant_laws import NormalState


def touching_depth(g: ContactGeometry, touch: float) -> float:
    """Penetration -gap of ``g`` (m): 0 within ``touch`` of zero, -inf beside its target."""
    if not g.reachable:
        return -math.inf
    return -g.gap if abs(g.gap) > touch else 0.0


class PairForces:
    """Kinematics and forces of one pair at one state; ``touch`` (m) is the gap within which
    the pair touches without penetrating (:data:`.compliant.TOUCH_FRACTION` of the model's size)."""

    __slots__ = ("geometry", "v_n", "v_t", "normal", "F_t", "dF_t", "touch")

    def __init__(self, geometry: ContactGeometry, v_n: float, v_t: float, normal: NormalState | None,
                 F_t: float, dF_t: float, touch: float):
        self.geometry, self.v_n, self.v_t, self.normal, self.F_t, self.dF_t = geometry, v_n, v_t, normal, F_t, dF_t
        self.touch = touch

    @property
    def delta(self) -> float:
        """Penetration (m; negative open, 0 within ``touch`` of touching, -inf beside a segment)."""
        return touching_depth(self.geometry, self.touch)

    @property
    def F_n(self) -> float:
        return self.normal.force if self.normal is not None else 0.0


def friction_sum(forces: list[PairForces]) -> float:
    """-F_t v_t summed over the pairs' forces, W."""
    return sum(-pf.F_t * pf.v_t for pf in forces)


def damping_sum(forces: list[PairForces]) -> float:
    """(F_n - F_el) δ̇ summed over the pairs' forces, W."""
    return sum((pf.normal.force - pf.normal.elastic) * -pf.v_n for pf in forces if pf.normal is not None)


def eccentricity(pair: ContactPair, q: np.ndarray) -> float:
    """Distance between the centres of a point and a circle target (m); nan for other targets."""
    if pair.kind != "circle":
        return math.nan
    cx, cy = (q[pair.target[0]], q[pair.target[1]]) if pair.target is not None else (pair.params["x"], pair.params["y"])
    return centre_distance(q[pair.point[0]] - cx, q[pair.point[1]] - cy)
