"""Supports, masses and forces that travel along a flexible link (Amirouche & Xie, eqs. 13-16, 26).

Each entry of the model's ``moving`` list sits at the link's material point at arc
length ``s(t)`` from its first node (a time function of :mod:`solver.model.timefn`, in m along the
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
* a **free** mass (``position.kind = "free"``) slides without friction along the deforming
  link, its arc length a degree of freedom found from its position: ``s`` is the point of
  the deformed link nearest the mass (:meth:`LinkPath.project`) and one row holds the mass
  on the link's normal there, ``n(s) . (x_m - p(q, s)) = 0`` (a bead on a wire: the seed's
  hollow beam with a moving mass, eq. 26 with ``s`` unprescribed).  The reaction is normal,
  so the mass is driven along the link by gravity, its force and the link's slope alone;
  it leaves the link at an end and flies on as a free point mass;
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
from ..model.timefn import TimeFunction

#: Gauss-Newton iterations of the projection on a link (converged within a few: the
#: rate is the gap times the curvature)
PROJECTION_ITERATIONS = 30


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

    def point(self, q: np.ndarray, s: float, element: int | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(p, dofs, J, dp_ds)``: the material point at ``s`` (m), the dofs (6,) of its
        element, the Jacobian (2, 6) of ``p`` on them and ``dp/ds`` (2,) along the deformed link.
        On a given ``element`` the point is that of its cubic, extended beyond its ends."""
        if element is None:
            e, xi = self.locate(s)
        else:
            e, xi = element, (s - float(self.L[:element].sum())) / self.L[element]
        dofs = self.elem_dofs[e]
        p, J, dp_dxi = point_on_element(q[dofs], self.beta0[e], xi)
        return p, dofs, J, dp_dxi / self.L[e]

    def on(self, s: float) -> bool:
        return 0.0 <= s <= self.length

    def project(self, q: np.ndarray, x: np.ndarray) -> float:
        """Arc length ``s`` (m) of the point of the deformed link nearest ``x`` (2,): Gauss-Newton on
        ``(x - p(s)) . dp/ds = 0`` from the projection on the current chord (``dp/ds`` is continuous
        along the link).  Beyond an end, the end's ``s`` plus the distance along its tangent."""
        a, b = q[self.elem_dofs[0, :2]], q[self.elem_dofs[-1, 3:5]]
        chord = b - a
        s = float((x - a) @ chord / (chord @ chord)) * self.length
        for _ in range(PROJECTION_ITERATIONS):
            held = min(max(s, 0.0), self.length)
            p, _dofs, _J, dp_ds = self.point(q, held)
            step = held + float((x - p) @ dp_ds / (dp_ds @ dp_ds)) - s
            s += step
            if abs(step) <= 1e-14 * self.length:
                break
        return s


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
    def free(self) -> bool:
        """A mass whose travel is a degree of freedom (``position.kind = "free"``)."""
        return self.position.kind == "free"

    @property
    def rows(self) -> int:
        """Constraint rows it adds to the Newton system (a free mass: while on the link)."""
        return 1 if self.free else {"support": 1, "mass": 2}.get(self.kind, 0)


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
