"""Contact pairs: gap, contact frame and contact Jacobian (thesis §3.1, §3.3).

A pair is a point (a node of a link, or a free body with its contact radius) and a
target: a fixed line, segment or circle, a node (with a fixed normal direction: the
thesis's candidate contact node pairs, eq. 3.1), or anywhere along a link's elements.
The normal ``n`` points out of the target; the tangent is ``t = (n_y, -n_x)``; the gap is
positive when open; ``v_n = n . (v_point - v_target)`` is positive when separating.

``J`` (2, n) maps the generalised velocities to ``(v_n, v_t)`` and, transposed, a
contact impulse ``(I_n, I_t)`` to generalised impulses (the thesis's ``[Q_imp]``,
eqs. 3.12-3.19; its rows are the thesis's ``alpha^T`` and ``[beta]^T``, eq. 3.17).  The
same rows on the (at most six) dofs they touch are ``dofs`` and ``Jc``: the compact
form the contact rows of the Newton system take (:mod:`solver.system.bordered`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .bordered import K

#: fraction of a segment's length beyond its ends within which a link target keeps the
#: segment the point was on (:meth:`ContactPair.geometry`)
SEGMENT_OVERLAP = 1e-4


@dataclass(frozen=True)
class ContactGeometry:
    """The state of a pair at a configuration."""

    gap: float  # m, > 0 open
    normal: np.ndarray  # (2,)
    tangent: np.ndarray  # (2,)
    reachable: bool  # False when the point is beside a segment target
    dofs: np.ndarray  # (K,) the dofs J touches (padded with dof 0)
    Jc: np.ndarray  # (2, K) J on those dofs (0 on the padding)
    n: int  # number of dofs of the system
    segment: int = -1  # the segment of a link target the point is on

    @cached_property
    def J(self) -> np.ndarray:
        """The contact Jacobian (2, n), dense."""
        J = np.zeros((2, self.n))
        np.add.at(J, (np.repeat([0, 1], K), np.tile(self.dofs, 2)), self.Jc.ravel())
        return J

    def rates(self, v: np.ndarray) -> np.ndarray:
        """``(v_n, v_t)`` of the generalised velocities (or accelerations) ``v``."""
        return self.Jc @ v[self.dofs]


@dataclass
class ContactPair:
    """One contact pair of a compiled system (SI units)."""

    id: str
    point: tuple[int, int]  # x, y dofs of the striking point
    radius: float
    kind: str  # ground_line | ground_segment | circle | node | link
    params: dict
    segments: np.ndarray  # (S, 4) dofs (x1, y1, x2, y2) of a link target's segments (else empty)
    target: tuple[int, int] | None  # dofs of a node target
    mu_s: float
    mu_d: float
    e: float
    law: str
    model: dict = field(default_factory=lambda: {"kind": "impulse"})  # the model file's ``model`` entry

    def geometry(self, q: np.ndarray, prefer: int = -1) -> ContactGeometry:
        """Gap, contact frame and Jacobian at ``q``.  On a link target, segment ``prefer`` is
        kept while the point projects onto it or within :data:`SEGMENT_OVERLAP` of its ends:
        a point resting on the node between two segments is not handed back and forth."""
        p = q[list(self.point)]
        k, prm = self.kind, self.params
        reachable = True
        weights: list[tuple[tuple[int, int], float]] = [(self.point, 1.0)]
        segment = -1
        if k == "ground_line":
            a = prm["angle"]
            normal = np.array([-math.sin(a), math.cos(a)])
            gap = float(normal @ (p - np.array([prm["x"], prm["y"]])))
        elif k == "ground_segment":
            p1, p2 = np.array([prm["x1"], prm["y1"]]), np.array([prm["x2"], prm["y2"]])
            gap, normal, xi = _segment(p, p1, p2)
            reachable = 0.0 <= xi <= 1.0
        elif k == "circle":
            c = np.array([prm["x"], prm["y"]])
            d = p - c
            dist = float(np.hypot(*d))
            normal = d / dist if dist > 0 else np.array([0.0, 1.0])
            if prm["inside"]:
                normal, gap = -normal, prm["radius"] - dist
            else:
                gap = dist - prm["radius"]
        elif k == "node":
            a = prm["angle"]
            normal = np.array([math.cos(a), math.sin(a)])
            gap = float(normal @ (p - q[list(self.target)]))
            weights.append((self.target, -1.0))
        else:  # a link's segments: the nearest, the point projected onto it (onto the node
            # between two segments when it is in the wedge outside both, on a convex kink)
            best, last = None, len(self.segments) - 1
            for i, seg in enumerate(self.segments):
                p1, p2 = q[seg[:2]], q[seg[2:]]
                g, nrm, xi = _segment(p, p1, p2)
                if (i == 0 and xi < 0.0) or (i == last and xi > 1.0):
                    continue  # beyond the link's ends
                kept = i == prefer and -SEGMENT_OVERLAP <= xi <= 1.0 + SEGMENT_OVERLAP
                if prm["side"] == "right":
                    g, nrm = -g, -nrm
                xi = min(max(xi, 0.0), 1.0)
                dist = -1.0 if kept else float(np.hypot(*(p - p1 - xi * (p2 - p1))))
                if best is None or dist < best[4]:
                    best = (g, nrm, xi, i, dist)
            if best is None:
                gap, normal, reachable = math.inf, np.array([0.0, 1.0]), False
            else:
                gap, normal, xi, segment, _dist = best
                seg = self.segments[segment]
                weights += [((seg[0], seg[1]), -(1.0 - xi)), ((seg[2], seg[3]), -xi)]
        gap -= self.radius
        tangent = np.array([normal[1], -normal[0]])
        dofs = np.zeros(K, dtype=np.int64)
        Jc = np.zeros((2, K))
        for i, ((dx, dy), w) in enumerate(weights):
            dofs[2 * i: 2 * i + 2] = dx, dy
            Jc[:, 2 * i] = w * normal[0], w * tangent[0]
            Jc[:, 2 * i + 1] = w * normal[1], w * tangent[1]
        return ContactGeometry(gap, normal, tangent, reachable, dofs, Jc, q.shape[0], segment)

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
