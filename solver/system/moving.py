"""Supports, masses and forces that travel along a flexible link (Amirouche & Xie, eqs. 13-16, 26).

Each entry of the model's ``moving`` list sits at the link's material point at arc
length ``s(t)`` from its first node (a time function of :mod:`.timefn`, in m along the
sketched link), found on the element that holds it by the element's shape functions
(:func:`solver.fem.beam_point.point_on_element`):

* a **support** holds that point on the link's sketched line, ``n0 . (p(q, s) - p0(s)) = 0``
  (``n0`` the sketched normal, ``p0(s)`` the sketched point): a roller sliding under the
  beam, the time-variant boundary condition of eqs. 13-16, here a constraint row whose
  element and weights change as the support travels instead of a change of mode shapes;
* a **mass** is a point of its own (a node named by its id) tied to that point by two rows
  ``x_m - p(q, s(t)) = 0``: its inertia, with the convective terms of the moving-mass
  problem (``w_tt + 2 v w_xt + v^2 w_xx``), comes from the constraint; off the link it
  runs on a rigid track along the link's sketched line, ``x_m - p0(s(t)) = 0``;
* a **force** adds ``J^T F`` to the loads (the consistent nodal forces of a point load)
  while ``0 <= s(t) <= L``.

The rows border the Newton system like the Lagrange contact rows
(:mod:`solver.contact.moving` writes them); this module only places the points.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..fem.beam_point import point_on_element
from .timefn import TimeFunction


@dataclass
class LinkPath:
    """A flexible link as a path of elements: where arc length ``s`` falls, and the point there."""

    start: np.ndarray  # (2,) sketched first node, m
    direction: np.ndarray  # (2,) sketched unit direction from the first node to the last
    elem_dofs: np.ndarray  # (E, 6) the link's elements, first node to last
    L: np.ndarray  # (E,) undeformed lengths, m
    beta0: np.ndarray  # (E,) sketched chord angles, rad

    @property
    def length(self) -> float:
        return float(self.L.sum())

    @property
    def normal(self) -> np.ndarray:
        """The sketched left normal, (2,)."""
        return np.array([-self.direction[1], self.direction[0]])

    def sketched(self, s: float) -> np.ndarray:
        """The sketched point at arc length ``s`` (on the line's extension beyond the ends), m."""
        return self.start + s * self.direction

    def locate(self, s: float) -> tuple[int, float]:
        """``(element, xi)`` of arc length ``s``, clamped to the link."""
        ends = np.cumsum(self.L)
        s = min(max(s, 0.0), float(ends[-1]))
        e = min(int(np.searchsorted(ends, s, side="right")), len(ends) - 1)
        return e, (s - (ends[e] - self.L[e])) / self.L[e]

    def point(self, q: np.ndarray, s: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(p, dofs, J, dp_ds)``: the material point at ``s`` (m), the dofs (6,) of its
        element, the Jacobian (2, 6) of ``p`` on them and ``dp/ds`` (2,) along the deformed link."""
        e, xi = self.locate(s)
        dofs = self.elem_dofs[e]
        p, J, dp_dxi = point_on_element(q[dofs], self.beta0[e], xi)
        return p, dofs, J, dp_dxi / self.L[e]

    def on(self, s: float) -> bool:
        return 0.0 <= s <= self.length


@dataclass
class Mover:
    """One compiled entry of the ``moving`` list (SI units)."""

    id: str
    kind: str  # support | mass | force
    path: LinkPath
    position: TimeFunction  # s(t), m
    force: np.ndarray  # (2,) N: the moving force, or the force on the mass
    mass_dofs: tuple[int, int] | None = None  # x, y of a moving mass

    @property
    def rows(self) -> int:
        """Constraint rows it adds to the Newton system."""
        return {"support": 1, "mass": 2}.get(self.kind, 0)


def link_path(link: dict, xy: dict[str, tuple[float, float]], elements: np.ndarray, elem_dofs: np.ndarray,
              L: np.ndarray, beta0: np.ndarray) -> LinkPath:
    """The path of a flexible link whose elements (first node to last) are ``elements``."""
    (x1, y1), (x2, y2) = xy[link["nodes"][0]], xy[link["nodes"][1]]
    length = math.hypot(x2 - x1, y2 - y1)
    return LinkPath(np.array([x1, y1]), np.array([x2 - x1, y2 - y1]) / length, elem_dofs[elements],
                    L[elements], beta0[elements])


def moving_forces(movers: list[Mover], q: np.ndarray, t: float, out: np.ndarray) -> None:
    """Add the consistent nodal forces ``J^T F`` of the moving forces at ``t``, and the forces on
    the moving masses, to ``out`` (n,)."""
    for m in movers:
        s = m.position.value(t)
        if m.kind == "mass":
            out[list(m.mass_dofs)] += m.force
        elif m.kind == "force" and m.path.on(s):
            _p, dofs, J, _t = m.path.point(q, s)
            np.add.at(out, dofs, J.T @ m.force)
