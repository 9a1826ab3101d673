"""Contact pairs: gap, contact frame and contact Jacobian (thesis §3.1, §3.3).

A pair is a point (a node of a link, or a free body, with the radius of its surface)
and a target: a fixed line, segment or circle, a circle whose centre moves with a node
(the bearing of a clearance joint, Flores et al. 2006 eq. 18), a node (with a fixed
normal direction: the thesis's candidate contact node pairs, eq. 3.1), or anywhere
along a link's elements.  The normal ``n`` points out of the target; the tangent is
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

from .bordered import K


@dataclass(frozen=True)
class ContactGeometry:
    """The state of a pair at a configuration."""

    gap: float  # m, > 0 open
    normal: np.ndarray  # (2,)
    tangent: np.ndarray  # (2,)
    local_dofs: np.ndarray  # (k,) the pair's dofs
    J_local: np.ndarray  # (2, k) Jacobian of (v_n, v_t) on those dofs
    n_dofs: int
    reachable: bool  # False when the point is beside a segment target
    touched: np.ndarray  # positions in local_dofs of the dofs J touches here

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
    kind: str  # ground_line | ground_segment | circle | node | link
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
    dofs: np.ndarray = field(init=False)  # every dof the pair may touch (its Newton block's)

    def __post_init__(self) -> None:
        dofs = list(self.point) + [self.point_rotation]
        if self.target is not None:
            dofs += list(self.target) + [self.target_rotation]
        dofs += self.segments.ravel().tolist()
        self.dofs = np.array(list(dict.fromkeys(d for d in dofs if d >= 0)), dtype=np.int64)
        self._slot = {int(d): i for i, d in enumerate(self.dofs)}
        self._point = np.array(self.point, dtype=np.int64)
        self._target = None if self.target is None else np.array(self.target, dtype=np.int64)

    @property
    def model_kind(self) -> str:
        return self.model.get("kind", "impulse")

    def geometry(self, q: np.ndarray) -> ContactGeometry:
        """Gap, contact frame and Jacobian at ``q``."""
        p = q[self._point]
        k, prm = self.kind, self.params
        reachable = True
        weights: list[tuple[tuple[int, int], float]] = [(self.point, 1.0)]
        rho_target = 0.0
        if k == "ground_line":
            a = prm["angle"]
            normal = np.array([-math.sin(a), math.cos(a)])
            gap = float(normal @ (p - np.array([prm["x"], prm["y"]])))
        elif k == "ground_segment":
            p1, p2 = np.array([prm["x1"], prm["y1"]]), np.array([prm["x2"], prm["y2"]])
            gap, normal, xi = _segment(p, p1, p2)
            reachable = 0.0 <= xi <= 1.0
        elif k == "circle":
            moving = self.target is not None
            c = q[self._target] if moving else np.array([prm["x"], prm["y"]])
            d = p - c
            dist = math.hypot(d[0], d[1])
            normal = d / dist if dist > 0 else np.array([0.0, 1.0])
            if prm["inside"]:
                normal, gap, rho_target = -normal, prm["radius"] - dist, -prm["radius"]
            else:
                gap, rho_target = dist - prm["radius"], prm["radius"]
            if moving:
                weights.append((self.target, -1.0))
        elif k == "node":
            a = prm["angle"]
            normal = np.array([math.cos(a), math.sin(a)])
            gap = float(normal @ (p - q[self._target]))
            weights.append((self.target, -1.0))
        else:  # a link's segments: the one the point projects onto, nearest
            best = None
            for seg in self.segments:
                p1, p2 = q[seg[:2]], q[seg[2:]]
                g, nrm, xi = _segment(p, p1, p2)
                if prm["side"] == "right":
                    g, nrm = -g, -nrm
                if 0.0 <= xi <= 1.0 and (best is None or abs(g) < abs(best[0])):
                    best = (g, nrm, xi, seg)
            if best is None:
                gap, normal, reachable = math.inf, np.array([0.0, 1.0]), False
            else:
                gap, normal, xi, seg = best
                weights += [((seg[0], seg[1]), -(1.0 - xi)), ((seg[2], seg[3]), -xi)]
        gap -= self.radius
        tangent = np.array([normal[1], -normal[0]])
        J = np.zeros((2, len(self.dofs)))
        touched = []
        for (dx, dy), w in weights:
            ix, iy = self._slot[dx], self._slot[dy]
            touched += [ix, iy]
            J[0, ix] += w * normal[0]
            J[0, iy] += w * normal[1]
            J[1, ix] += w * tangent[0]
            J[1, iy] += w * tangent[1]
        for dof, arm in ((self.point_rotation, self.radius), (self.target_rotation, rho_target)):
            if dof >= 0:
                touched.append(self._slot[dof])
                J[1, self._slot[dof]] += arm
        touched = np.array(list(dict.fromkeys(touched)), dtype=np.int64)
        return ContactGeometry(gap, normal, tangent, self.dofs, J, self.n_dofs, reachable, touched)

    @property
    def curved(self) -> bool:
        """Whether the gap is nonlinear in the dofs (a circle, or a link whose segments turn)."""
        return self.kind in ("circle", "link")


def _segment(p: np.ndarray, p1: np.ndarray, p2: np.ndarray) -> tuple[float, np.ndarray, float]:
    """Signed distance of p from the line p1 -> p2 (left positive), its left normal, and the
    position of p's projection along the segment (0 at p1, 1 at p2)."""
    d = p2 - p1
    length = float(np.hypot(*d))
    u = d / length
    normal = np.array([-u[1], u[0]])
    return float(normal @ (p - p1)), normal, float(u @ (p - p1)) / length
