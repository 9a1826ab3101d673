"""Contact pairs: gap, contact frame and contact Jacobian (thesis §3.1, §3.3).

A pair is a point (a node of a link, or a free body, with the radius of its surface)
and a target: a fixed line, segment or circle, a circle whose centre moves with a node
(the bearing of a clearance joint, Flores et al. 2006 eq. 18), a node (with a fixed
normal direction: the thesis's candidate contact node pairs, eq. 3.1; a flat face through
the node across the normal, reachable while the point's centre is within ``reach`` of the
node across the normal and less than ``reach`` behind the face), or anywhere
along a link's elements: straight segments between its nodes, or for a rolling or compliant pair on a
flexible or modal link (``link_curve``) the deformed elements themselves, placed by their shape
functions (:mod:`solver.fem.beam_point`), whose tangent is continuous across the nodes.  The normal ``n`` points out of the target; the tangent is
``t = (n_y, -n_x)``; the gap is positive when open (``delta = -gap`` is the
penetration); ``v_n = n . (v_point - v_target)`` is positive when separating.  The
contact point lies on each surface on the line of the normal, so the tangential
velocity includes the rotation of each round surface: ``+ r omega_point`` for a point
of radius r and ``+ rho omega_target`` for a circle target, rho = R outside it and
-R inside it.

``J`` (2, n) maps the generalised velocities to ``(v_n, v_t)`` and, transposed, a
contact impulse or force ``(P_n, P_t)`` to generalised impulses or forces (the
thesis's ``[Q_imp]``, eqs. 3.12-3.19; its rows are the thesis's ``alpha^T`` and
``[beta]^T``, eq. 3.17).  It is nonzero only on the pair's own dofs,
:attr:`ContactPair.dofs`, where ``J_local`` (2, k) holds it.  The same rows on the (at
most :data:`~solver.system.bordered.K`) dofs they touch at this configuration are
``dofs`` and ``Jc``: the compact form the contact rows of the Newton system take
(:mod:`solver.system.bordered`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..fem.beam_point import point_on_element
from .bordered import K

#: fraction of a segment's length beyond its ends within which a link target keeps the
#: segment the point was on (:meth:`ContactPair.geometry`)
SEGMENT_OVERLAP = 1e-4

#: fraction of the length of the segment (or element) a point projects onto that its surface may be
#: behind the link's face and still touch it: deeper, it has gone behind the link (round its end:
#: a block 1.36 m behind a swung 0.4 m rod), like a node target's ``reach``
BEHIND_FRACTION = 0.5

#: fraction of the length of a link's end segment that a point beside that end must be behind the
#: segment's line (beyond TOL) to be behind the link (:meth:`ContactPair.note_behind`): a pressed
#: point of a compliant pair that slides off the end, a fraction of a millimetre in, is not
BESIDE_FRACTION = 0.01


@dataclass(frozen=True)
class ContactGeometry:
    """The state of a pair at a configuration."""

    gap: float  # m, > 0 open
    normal: np.ndarray  # (2,)
    tangent: np.ndarray  # (2,)
    local_dofs: np.ndarray  # (k,) the pair's dofs
    J_local: np.ndarray  # (2, k) Jacobian of (v_n, v_t) on those dofs
    n_dofs: int
    reachable: bool  # False when the point is beside a segment target or beyond a node target's face
    touched: np.ndarray  # positions in local_dofs of the dofs J touches here
    segment: int = -1  # the segment of a link target the point is on

    @cached_property
    def J(self) -> np.ndarray:
        """The Jacobian on every dof of the system, (2, n)."""
        J = np.zeros((2, self.n_dofs))
        J[:, self.local_dofs] = self.J_local
        return J

    @cached_property
    def dofs(self) -> np.ndarray:
        """(K,) the dofs J touches at this configuration (padded with dof 0)."""
        out = np.zeros(K, dtype=np.int64)
        out[: len(self.touched)] = self.local_dofs[self.touched]
        return out

    @cached_property
    def Jc(self) -> np.ndarray:
        """(2, K) J on :attr:`dofs` (0 on the padding)."""
        out = np.zeros((2, K))
        out[:, : len(self.touched)] = self.J_local[:, self.touched]
        return out

    def velocity(self, v: np.ndarray) -> np.ndarray:
        """``(v_n, v_t)`` (m/s) for the generalised velocities ``v``."""
        return self.J_local @ v[self.local_dofs]


@dataclass
class ContactPair:
    """One contact pair of a compiled system (SI units).

    ``point_rotation`` and ``target_rotation`` are the rotation dofs of the two surfaces
    (-1: the surface does not turn, or has no radius to turn with); ``target`` holds the
    dofs of a node target or of a moving circle's centre.  ``model`` is the resolution
    model's description from the file (``{"kind": "impulse"}``, or a compliant law's
    fields with defaults filled in).
    """

    id: str
    point: tuple[int, int]  # x, y dofs of the striking point
    radius: float
    kind: str  # ground_line | ground_segment | circle | node | link | link_curve
    params: dict
    segments: np.ndarray  # (S, 4) dofs (x1, y1, x2, y2) of a link target's segments (else empty)
    target: tuple[int, int] | None  # dofs of a node target or of a moving circle's centre
    mu_s: float
    mu_d: float
    e: float
    law: str
    n_dofs: int
    point_rotation: int = -1
    target_rotation: int = -1
    model: dict = field(default_factory=lambda: {"kind": "impulse"})
    #: a link_curve target's elements: their dofs (E, 6) and sketched chord angles (E,), rad
    beam: tuple[np.ndarray, np.ndarray] | None = None
    dofs: np.ndarray = field(init=False)  # every dof the pair may touch (its Newton block's)
    #: a link target's point is behind the link, come there round its end (:meth:`note_behind`):
    #: the link is out of its reach until it is in front of the face again
    behind: bool = field(default=False, init=False, compare=False)

    def __post_init__(self) -> None:
        dofs = list(self.point) + [self.point_rotation]
        if self.target is not None:
            dofs += list(self.target) + [self.target_rotation]
        dofs += self.segments.ravel().tolist()
        if self.beam is not None:
            dofs += self.beam[0].ravel().tolist()
        self.dofs = np.array(list(dict.fromkeys(d for d in dofs if d >= 0)), dtype=np.int64)
        self._slot = {int(d): i for i, d in enumerate(self.dofs)}
        self._point_slots = (self._slot[self.point[0]], self._slot[self.point[1]])
        self._target_slots = None if self.target is None else (self._slot[self.target[0]], self._slot[self.target[1]])
        self._turning = [(self._slot[d], arm) for d, arm in ((self.point_rotation, 1.0), (self.target_rotation, -1.0))
                         if d >= 0]

    @property
    def model_kind(self) -> str:
        return self.model.get("kind", "impulse")

    def geometry(self, q: np.ndarray, prefer: int = -1) -> ContactGeometry:
        """Gap, contact frame and Jacobian at ``q``.  On a link target, segment ``prefer`` is
        kept while the point projects onto it or within :data:`SEGMENT_OVERLAP` of its ends:
        a point resting on the node between two segments is not handed back and forth."""
        px, py = q[self.point[0]], q[self.point[1]]
        k, prm = self.kind, self.params
        reachable = True
        weights = [(*self._point_slots, 1.0)]  # (slot of x, slot of y, weight) of each point moving the contact
        rho_target = 0.0  # +R outside a circle target, -R inside it
        segment = -1
        if k == "ground_line":
            a = prm["angle"]
            nx, ny = -math.sin(a), math.cos(a)
            gap = nx * (px - prm["x"]) + ny * (py - prm["y"])
        elif k == "ground_segment":
            gap, nx, ny, xi = _segment(px, py, prm["x1"], prm["y1"], prm["x2"], prm["y2"])
            reachable = 0.0 <= xi <= 1.0
        elif k == "circle":
            moving = self.target is not None
            cx, cy = (q[self.target[0]], q[self.target[1]]) if moving else (prm["x"], prm["y"])
            dx, dy = px - cx, py - cy
            dist = centre_distance(dx, dy)
            nx, ny = (dx / dist, dy / dist) if dist > 0 else (0.0, 1.0)
            if prm["inside"]:
                gap = prm["radius"] + (self._worn(q, nx, ny) if "worn" in prm else 0.0) - dist
                nx, ny, rho_target = -nx, -ny, -prm["radius"]
            else:
                gap, rho_target = dist - prm["radius"], prm["radius"]
            if moving:
                weights.append((*self._target_slots, -1.0))
        elif k == "node":
            a, reach = prm["angle"], prm["reach"]
            nx, ny = math.cos(a), math.sin(a)
            dx, dy = px - q[self.target[0]], py - q[self.target[1]]
            gap = nx * dx + ny * dy
            reachable = bool(abs(ny * dx - nx * dy) <= reach and gap - self.radius >= -reach)
            weights.append((*self._target_slots, -1.0))
        elif k == "link_curve":
            gap, nx, ny, segment, curve = self._on_curve(q, px, py, prefer)
            reachable = segment >= 0
        else:
            gap, nx, ny, segment, ends = self._on_segments(q, px, py, prefer)
            reachable = segment >= 0
            weights += ends
        gap -= self.radius
        tx, ty = ny, -nx
        J = np.zeros((2, len(self.dofs)))
        touched = []
        for ix, iy, w in weights:
            touched += [ix, iy]
            J[0, ix] += w * nx
            J[0, iy] += w * ny
            J[1, ix] += w * tx
            J[1, iy] += w * ty
        if k == "link_curve" and segment >= 0:  # the material point of the deformed element under the point
            slots, Jp = curve
            for c_, slot in enumerate(slots):
                touched.append(slot)
                J[0, slot] -= nx * Jp[0, c_] + ny * Jp[1, c_]
                J[1, slot] -= tx * Jp[0, c_] + ty * Jp[1, c_]
        for slot, side in self._turning:  # the point's rotation with its radius, the target's with rho
            touched.append(slot)
            J[1, slot] += self.radius if side > 0 else rho_target
        touched = np.array(list(dict.fromkeys(touched)), dtype=np.int64)
        return ContactGeometry(float(gap), np.array([nx, ny]), np.array([tx, ty]), self.dofs, J, self.n_dofs,
                               reachable, touched, segment)

    def _worn(self, q: np.ndarray, ux: float, uy: float) -> float:
        """The depth a worn bore (``params["worn"]``, m per arc of its circumference) has in the
        direction ``(ux, uy)`` from its centre: at that angle in the bearing's frame (its rotation
        since the start taken off), linear between the arcs' middles.  The normal stays radial."""
        worn = self.params["worn"]
        turned = q[self.target_rotation] - self.params["turned_from"] if self.target_rotation >= 0 else 0.0
        angle = math.degrees(math.atan2(uy, ux) - turned) % 360.0
        middles = (np.arange(len(worn)) + 0.5) * (360.0 / len(worn))
        return float(np.interp(angle, middles, worn, period=360.0))

    def note_behind(self, q: np.ndarray, tol: float, fresh: bool = False) -> bool:
        """Update :attr:`behind` of a link target's open pair at an accepted configuration ``q``
        (from nothing when ``fresh``, a run's start); whether it changed.

        The point is behind the link when, beside its ends, its surface is behind the line of the
        end segment it is beyond by more than ``tol`` (m) and :data:`BESIDE_FRACTION` of that
        segment, and stays so while it projects onto a segment with its surface behind the face
        beyond ``tol``: it came round the link's end, and the segment's line, which puts it
        that deep in the link, is no face it passed through (a pendulum swung past a block 3 mm
        beyond its tip found it 56 mm deep and struck it from behind)."""
        if self.kind not in ("link", "link_curve"):
            return False
        was, self.behind = self.behind and not fresh, False
        g = self.geometry(q)
        if g.reachable:
            self.behind = was and g.gap < -tol
        else:
            line_gap, _sx, _sy, _xi, segment, _dist, _beyond = self._nearest(q, q[self.point[0]], q[self.point[1]], -1)
            seg = self.segments[segment]
            length = math.hypot(q[seg[2]] - q[seg[0]], q[seg[3]] - q[seg[1]])
            self.behind = line_gap - self.radius < -tol - BESIDE_FRACTION * length
        return self.behind != was

    def _nearest(self, q: np.ndarray, px: float, py: float, prefer: int) -> tuple:
        """The nearest of a link's segments to the point (``prefer`` kept while the point
        projects onto it within :data:`SEGMENT_OVERLAP`): ``(signed distance from its line on
        the contact side, nx, ny, xi clamped to it, segment, distance, whether the point is
        beyond the link's end)``."""
        best, last = None, len(self.segments) - 1
        for i, seg in enumerate(self.segments):
            x1, y1, x2, y2 = q[seg[0]], q[seg[1]], q[seg[2]], q[seg[3]]
            g, sx, sy, xi = _segment(px, py, x1, y1, x2, y2)
            beyond = (i == 0 and xi < 0.0) or (i == last and xi > 1.0)  # beyond the link's ends
            kept = i == prefer and not beyond and -SEGMENT_OVERLAP <= xi <= 1.0 + SEGMENT_OVERLAP
            if self.params["side"] == "right":
                g, sx, sy = -g, -sx, -sy
            xi = min(max(xi, 0.0), 1.0)
            dist = -1.0 if kept else math.hypot(px - x1 - xi * (x2 - x1), py - y1 - xi * (y2 - y1))
            if best is None or dist < best[5]:
                best = (g, sx, sy, xi, i, dist, beyond)
        return best

    def _on_segments(self, q: np.ndarray, px: float, py: float, prefer: int):
        """The point projected onto the nearest of a link's segments (:meth:`_nearest`; onto
        the node between two segments when it is in the wedge outside both, on a convex kink):
        ``(gap, nx, ny, segment, weights of its two ends)``; segment -1 beside the link's ends,
        or behind the link (:attr:`behind`, :meth:`_behind`)."""
        best = None if self.behind else self._nearest(q, px, py, prefer)
        if best is None or best[6]:  # nearest to an end of the link, beside it: not the line of an inner segment
            return math.inf, 0.0, 1.0, -1, []
        gap, nx, ny, xi, segment, _dist, _beyond = best
        seg, slot = self.segments[segment], self._slot
        if self._behind(gap, math.hypot(q[seg[2]] - q[seg[0]], q[seg[3]] - q[seg[1]])):
            return math.inf, 0.0, 1.0, -1, []
        return gap, nx, ny, segment, [(slot[seg[0]], slot[seg[1]], -(1.0 - xi)), (slot[seg[2]], slot[seg[3]], -xi)]

    def _on_curve(self, q: np.ndarray, px: float, py: float, prefer: int):
        """The point projected onto the deformed elements of a link_curve target: ``(gap, nx, ny,
        element, (slots of its dofs, Jacobian (2, 6) of the material point there))``: from the
        element whose chord is nearest (``prefer`` kept while the point projects onto its chord
        within :data:`SEGMENT_OVERLAP`), the foot of the perpendicular (:func:`_foot`), passed on
        to the neighbour when it lies beyond the element's end by more than that; element -1
        beside the link's ends."""
        if self.behind:
            return math.inf, 0.0, 1.0, -1, None
        dofs, beta0 = self.beam
        best, last = None, len(dofs) - 1
        for e, ed in enumerate(dofs):
            _g, _sx, _sy, xi = _segment(px, py, q[ed[0]], q[ed[1]], q[ed[3]], q[ed[4]])
            beyond = (e == 0 and xi < 0.0) or (e == last and xi > 1.0)
            xi = min(max(xi, 0.0), 1.0)
            kept = e == prefer and not beyond and -SEGMENT_OVERLAP <= xi <= 1.0 + SEGMENT_OVERLAP
            dist = -1.0 if kept else math.hypot(px - q[ed[0]] - xi * (q[ed[3]] - q[ed[0]]),
                                                py - q[ed[1]] - xi * (q[ed[4]] - q[ed[1]]))
            if best is None or dist < best[2]:
                best = (e, xi, dist, beyond)
        if best[3]:  # nearest to an end of the link, beside it
            return math.inf, 0.0, 1.0, -1, None
        e, xi, _d, _beyond = best
        for _ in range(len(dofs)):  # the foot point, on the neighbour when it lies beyond the element's end
            xi = _foot(q[dofs[e]], beta0[e], xi, px, py)
            if xi > 1.0 + SEGMENT_OVERLAP and e < last:
                e, xi = e + 1, 0.0
            elif xi < -SEGMENT_OVERLAP and e > 0:
                e, xi = e - 1, 1.0
            else:
                break
        xi = min(max(xi, 0.0), 1.0) if (e == 0 and xi < 0.0) or (e == last and xi > 1.0) else xi
        qe = q[dofs[e]]
        x, Jp, dx = point_on_element(qe, beta0[e], xi)
        norm = math.hypot(dx[0], dx[1])
        nx, ny = -dx[1] / norm, dx[0] / norm
        if self.params["side"] == "right":
            nx, ny = -nx, -ny
        gap = nx * (px - x[0]) + ny * (py - x[1])
        if self._behind(gap, math.hypot(qe[3] - qe[0], qe[4] - qe[1])):
            return math.inf, 0.0, 1.0, -1, None
        return gap, nx, ny, e, ([self._slot[int(d)] for d in dofs[e]], Jp)

    def _behind(self, gap: float, length: float) -> bool:
        """Whether a point whose centre is ``gap`` (m) in front of a link's face has gone behind
        the link: its surface deeper than :data:`BEHIND_FRACTION` of the ``length`` (m) of the
        segment or element it projects onto (it came round the link's end, or through it)."""
        return gap - self.radius < -BEHIND_FRACTION * length

    def held_geometry(self, q: np.ndarray, prefer: int) -> ContactGeometry | None:
        """:meth:`geometry` of a closed Lagrange pair's rows at a Newton iterate ``q`` (not remembered:
        Newton's ``q`` changes in place); None once the point has passed the end of its target, or of
        the segment ``prefer`` the rows were written for, within the step: the rows then hold it on
        their line, and the step's end releases it (:meth:`~solver.contact.lagrange.LagrangeModel.switch`,
        'passed the end of the target') or the next step's rows are written for the next segment, the
        gap carried over (:meth:`~solver.contact.lagrange.LagrangeModel.fill_rows`)."""
        g = self.geometry(q, prefer)
        return g if g.reachable and g.segment == prefer else None

    @property
    def curved(self) -> bool:
        """Whether the gap is nonlinear in the dofs (a circle, or a link whose segments turn)."""
        return self.kind in ("circle", "link", "link_curve")


def _foot(qe: np.ndarray, beta0: float, xi: float, px: float, py: float) -> float:
    """``xi`` of the foot of the perpendicular from ``p`` on the deformed element (the cubic
    extended beyond its ends), by Gauss-Newton steps on ``(p - x(xi)) . x'(xi) = 0`` from ``xi``."""
    for _ in range(12):
        x, _J, dx = point_on_element(qe, beta0, xi)
        step = ((px - x[0]) * dx[0] + (py - x[1]) * dx[1]) / (dx[0] * dx[0] + dx[1] * dx[1])
        xi = min(max(xi + step, -0.5), 1.5)
        if abs(step) < 1e-14:
            break
    return xi


def _segment(px: float, py: float, x1: float, y1: float, x2: float, y2: float) -> tuple[float, float, float, float]:
    """Signed distance of p from the line p1 -> p2 (left positive), its left normal (x, y), and
    the position of p's projection along the segment (0 at p1, 1 at p2)."""
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    return -uy * (px - x1) + ux * (py - y1), -uy, ux, (ux * (px - x1) + uy * (py - y1)) / length


def centre_distance(dx: float, dy: float) -> float:
    """Distance (m) of a point from a circle's centre ``(dx, dy)`` (m) away: the one formula of
    the Python path and of the compiled circle pairs (:mod:`solver.contact.circle_pairs` compiles
    this very function), equal to the bit in both since each operation is correctly rounded
    (IEEE 754) and numba contracts nothing into fused multiply-adds without ``fastmath``."""
    return math.sqrt(dx * dx + dy * dy)
