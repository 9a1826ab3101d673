"""Holonomic constraints ``g(q, t) = 0`` of joints and drivers.

Three kinds cover the planar joints (thesis §2.4 f shares dofs where it can; what
cannot be shared is constrained here, with Lagrange multipliers in the Newton system):

* dof motion -- ``q_i - q_i0 - f(t) = 0``: ground pins and clamps (f = 0), angle and
  speed drivers, prescribed nodal displacements;
* body point -- ``x_n - x_b - R(phi_b) (r + S q_f) = 0``: a node attached to a rigid
  body, or to the floating frame of a modal link, whose modal coordinates ``q_f``
  displace the node by ``S q_f`` in the frame (``S`` empty for a rigid body);
* linear row -- ``sum_j c_j (q_j - p_j) = 0``: a node on a straight guide (a slider,
  ``n . (x_n - p) = 0``), or the rotation of a modal link's section at a node
  (``theta_n - theta - s . q_f = 0``).

The builders collect them while a model is compiled; :class:`ConstraintSet` stacks
them (rows: dof motions, body points, sliders) on a fixed sparsity pattern and
evaluates residual, Jacobian values and the acceleration right-hand side ``gamma``
(``G a = gamma``) with one compiled call, :func:`constraint_eval`, which the Newton
kernel of the time loop uses as well.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from ..jit import njit

from ..model.timefn import POLYNOMIAL, TimeFunction


@njit(cache=True)
def constraint_eval(q, v, dm_dofs, dm_target, dm_acc, bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, g, vals, gamma):
    """Fill residual ``g``, Jacobian values ``vals`` (pattern of :class:`ConstraintSet`) and,
    when ``v`` is not empty, ``gamma`` of every constraint.

    dof motion: ``g = q_i - target``, value 1, gamma = prescribed acceleration;
    body point: ``g = x_n - x_b - R u`` with ``u = r + S q_f``, values (1, -1, -dR/dphi u,
    -R S), gamma = -R u phidot^2 + 2 phidot J R S q_f' (``bp_b`` holds the body's
    dofs x, y, phi, then its modal dofs; ``bp_r`` the arm r, then the rows of S);
    linear row: ``g = sum_j c_j (q_j - p_j)``, values c, gamma = 0.
    """
    k0 = dm_dofs.shape[0]
    with_v = v.shape[0] > 0
    for i in range(k0):
        g[i] = q[dm_dofs[i]] - dm_target[i]
        vals[i] = 1.0
        if with_v:
            gamma[i] = dm_acc[i]
    row = k0
    o = k0
    W = bp_b.shape[1] - 3
    for k in range(bp_n.shape[0]):
        phi = q[bp_b[k, 2]]
        c, s = np.cos(phi), np.sin(phi)
        rx, ry = bp_r[k, 0], bp_r[k, 1]
        sx = sy = 0.0  # S q_f'
        for j in range(W):
            qj = q[bp_b[k, 3 + j]]
            rx += bp_r[k, 2 + j] * qj
            ry += bp_r[k, 2 + W + j] * qj
            if with_v:
                sx += bp_r[k, 2 + j] * v[bp_b[k, 3 + j]]
                sy += bp_r[k, 2 + W + j] * v[bp_b[k, 3 + j]]
        Rx, Ry = c * rx - s * ry, s * rx + c * ry
        g[row] = q[bp_n[k, 0]] - q[bp_b[k, 0]] - Rx
        g[row + 1] = q[bp_n[k, 1]] - q[bp_b[k, 1]] - Ry
        vals[o], vals[o + 1], vals[o + 2] = 1.0, -1.0, Ry
        vals[o + 3 + W], vals[o + 4 + W], vals[o + 5 + W] = 1.0, -1.0, -Rx
        for j in range(W):
            Sx, Sy = bp_r[k, 2 + j], bp_r[k, 2 + W + j]
            vals[o + 3 + j] = -(c * Sx - s * Sy)
            vals[o + 6 + W + j] = -(s * Sx + c * Sy)
        if with_v:
            w = v[bp_b[k, 2]]
            RSx, RSy = c * sx - s * sy, s * sx + c * sy
            gamma[row] = -Rx * w * w - 2.0 * w * RSy
            gamma[row + 1] = -Ry * w * w + 2.0 * w * RSx
        row += 2
        o += 6 + 2 * W
    for k in range(sl_n.shape[0]):
        acc = 0.0
        for j in range(sl_n.shape[1]):
            cj = sl_nrm[k, j]
            acc += (q[sl_n[k, j]] - sl_p[k, j]) * cj
            vals[o + j] = cj
        g[row] = acc
        if with_v:
            gamma[row] = 0.0
        row += 1
        o += sl_n.shape[1]


@dataclass
class DofMotion:
    """Builder of dof-motion rows; speed drivers integrate their function."""

    dofs: list[int] = field(default_factory=list)
    base: list[float] = field(default_factory=list)
    functions: list[TimeFunction | None] = field(default_factory=list)
    integrate: list[bool] = field(default_factory=list)
    #: the model path of the joint or driver of each row (``joints[pin]``), "" for a loose point
    owners: list[str] = field(default_factory=list)

    def add(self, dof: int, base: float, fn: TimeFunction | None = None, integrate: bool = False,
            owner: str = "") -> int:
        self.dofs.append(dof)
        self.base.append(base)
        self.functions.append(fn)
        self.integrate.append(integrate)
        self.owners.append(owner)
        return len(self.dofs) - 1

    def subset(self, rows: list[int]) -> "DofMotion":
        """The rows ``rows`` of this builder, in that order."""
        return DofMotion(*([column[i] for i in rows] for column in
                           (self.dofs, self.base, self.functions, self.integrate, self.owners)))


@dataclass
class BodyPoint:
    """Builder of body-point constraints: arm ``r`` (m) from the body's reference point,
    and for a modal link the node's modal displacements ``S`` (2, n_f), both along the
    inertial axes in the sketched configuration; the body's dofs are ``(x, y, phi)``
    followed by its ``n_f`` modal dofs."""

    node_dofs: list[tuple[int, int]] = field(default_factory=list)
    body_dofs: list[tuple[int, ...]] = field(default_factory=list)
    arms: list[tuple[float, float]] = field(default_factory=list)
    shapes: list[np.ndarray] = field(default_factory=list)

    def add(self, node_dofs: tuple[int, int], body_dofs: tuple[int, ...], arm: tuple[float, float],
            shape: np.ndarray | None = None) -> None:
        self.node_dofs.append(node_dofs)
        self.body_dofs.append(tuple(body_dofs))
        self.arms.append(arm)
        self.shapes.append(np.zeros((2, len(body_dofs) - 3)) if shape is None else np.asarray(shape, dtype=float))

    def padded(self) -> tuple[np.ndarray, np.ndarray]:
        """``(bp_b, bp_r)`` with every body's modal dofs padded to the largest count (the
        padding repeats the body's rotation dof with a zero shape)."""
        K = len(self.node_dofs)
        W = max((s.shape[1] for s in self.shapes), default=0)
        dofs = np.empty((K, 3 + W), dtype=np.int64)
        arms = np.zeros((K, 2 + 2 * W))
        for k, (bd, arm, S) in enumerate(zip(self.body_dofs, self.arms, self.shapes)):
            n = S.shape[1]
            dofs[k, : 3 + n] = bd
            dofs[k, 3 + n :] = bd[2]
            arms[k, :2] = arm
            arms[k, 2 : 2 + n] = S[0]
            arms[k, 2 + W : 2 + W + n] = S[1]
        return dofs, arms


@dataclass
class SliderLine:
    """Builder of linear rows: sliders (guide normal and a point of the guide) and
    general rows ``sum_j c_j q_j = 0`` (:meth:`add_row`)."""

    node_dofs: list[tuple[int, ...]] = field(default_factory=list)
    normals: list[tuple[float, ...]] = field(default_factory=list)
    points: list[tuple[float, ...]] = field(default_factory=list)
    #: the model path of the slider of each row (``joints[guide]``), "" for a modal link's row
    owners: list[str] = field(default_factory=list)

    def add(self, node_dofs: tuple[int, int], normal: tuple[float, float], point: tuple[float, float],
            owner: str = "") -> None:
        self.node_dofs.append(node_dofs)
        self.normals.append(normal)
        self.points.append(point)
        self.owners.append(owner)

    def add_row(self, dofs: tuple[int, ...], coefficients: tuple[float, ...]) -> None:
        """The row ``sum_j c_j q_j = 0``."""
        self.add(tuple(dofs), tuple(coefficients), (0.0,) * len(dofs))

    def subset(self, rows: list[int]) -> "SliderLine":
        """The rows ``rows`` of this builder, in that order."""
        return SliderLine(*([column[i] for i in rows] for column in (self.node_dofs, self.normals, self.points,
                                                                       self.owners)))

    def padded(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(dofs, coefficients, offsets)`` padded to the widest row (coefficient 0)."""
        K = len(self.node_dofs)
        W = max((len(d) for d in self.node_dofs), default=2)
        dofs = np.empty((K, W), dtype=np.int64)
        coef = np.zeros((K, W))
        offs = np.zeros((K, W))
        for k, (d, c, p) in enumerate(zip(self.node_dofs, self.normals, self.points)):
            dofs[k, : len(d)], dofs[k, len(d) :] = d, d[0]
            coef[k, : len(d)], offs[k, : len(d)] = c, p
        return dofs, coef, offs


class ConstraintSet:
    """All constraints of a system stacked, with their fixed Jacobian pattern ``rows, cols``."""

    def __init__(self, dm: DofMotion, bp: BodyPoint, sl: SliderLine):
        self.dm_dofs = np.array(dm.dofs, dtype=np.int64)
        self.dm_base = np.array(dm.base, dtype=float)
        self.functions = dm.functions
        self.integrate = dm.integrate
        self._moving = [i for i, f in enumerate(dm.functions) if f is not None]
        self.bp_n = np.array(bp.node_dofs, dtype=np.int64).reshape(-1, 2)
        self.bp_b, self.bp_r = bp.padded()
        self.sl_n, self.sl_nrm, self.sl_p = sl.padded()
        k0, k1, k2 = len(self.dm_dofs), len(self.bp_n), len(self.sl_n)
        self.count = k0 + 2 * k1 + k2
        rows = [np.arange(k0)]
        cols = [self.dm_dofs]
        W = self.bp_b.shape[1] - 3
        bp_rows = k0 + np.repeat(np.arange(2 * k1), 3 + W)
        bp_cols = np.empty((k1, 2, 3 + W), dtype=np.int64)
        for i in (0, 1):
            bp_cols[:, i, :3] = np.stack([self.bp_n[:, i], self.bp_b[:, i], self.bp_b[:, 2]], axis=1)
            bp_cols[:, i, 3:] = self.bp_b[:, 3:]
        rows += [bp_rows, k0 + 2 * k1 + np.repeat(np.arange(k2), self.sl_n.shape[1])]
        cols += [bp_cols.ravel(), self.sl_n.ravel()]
        self.rows = np.concatenate(rows).astype(np.int64)
        self.cols = np.concatenate(cols).astype(np.int64)
        #: the model path of the joint or driver of each row ("" for the links' own rows)
        self.owners = [*dm.owners, *[""] * (2 * k1), *sl.owners]
        #: the joints' rows dropped as holding a motion the others hold (:mod:`.redundant_joints`)
        self.redundant: tuple = ()
        #: those rows, a constraint set of their own (their Jacobian splits the reactions)
        self.held_twice: ConstraintSet | None = None
        self._cache_t: float | None = None  # the time of the prescribed motion cached in _cache
        self._cache = np.zeros((3, len(self.dm_dofs)))
        self._empty = np.empty(0)

    # ------------------------------------------------------------------ prescribed motion
    def prescribed(self, t: float, order: int = 0) -> np.ndarray:
        """Prescribed displacement (order 0), velocity (1) or acceleration (2) of the
        dof-motion rows (0 for fixed dofs); speed drivers integrate their function."""
        if t != self._cache_t:
            motion = np.zeros((3, len(self.dm_dofs)))
            for i in self._moving:
                motion[:, i] = self._motion_of(i, t)
            self._cache_t, self._cache = t, motion
        return self._cache[order]

    def _motion_of(self, i: int, t: float) -> tuple[float, float, float]:
        """Displacement, velocity and acceleration of dof-motion row ``i`` at ``t``."""
        f = self.functions[i]
        if self.integrate[i]:
            return f.integral(t), f.value(t), f.rate(t)
        return f.value(t), f.rate(t), f.accel(t)

    def motion_at(self, times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`target` and the prescribed accelerations at each of ``times``, (K, rows) each.
        Polynomial functions (:data:`~solver.model.timefn.POLYNOMIAL`) are evaluated on the whole array,
        with the same operations as at each time."""
        motion = np.zeros((3, len(times), len(self.dm_dofs)))
        for i in self._moving:
            if self.functions[i].kind in POLYNOMIAL:
                for order, value in enumerate(self._motion_of(i, times)):
                    motion[order, :, i] = value
            else:
                motion[:, :, i] = np.array([self._motion_of(i, t) for t in times.tolist()]).T
        return self.dm_base + motion[0], motion[2]

    def target(self, t: float) -> np.ndarray:
        """Values the dof-motion rows must take at t."""
        return self.dm_base + self.prescribed(t)

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, q: np.ndarray, t: float, v: np.ndarray | None = None):
        """``(g, G values, gamma)`` at ``(q, t)``; gamma only when ``v`` is given."""
        g = np.empty(self.count)
        vals = np.empty(self.rows.size)
        gamma = np.empty(self.count)
        constraint_eval(q, self._empty if v is None else v, self.dm_dofs, self.target(t), self.prescribed(t, 2),
                        self.bp_n, self.bp_b, self.bp_r, self.sl_n, self.sl_nrm, self.sl_p, g, vals, gamma)
        return g, vals, gamma

    def residual(self, q: np.ndarray, t: float) -> np.ndarray:
        return self.evaluate(q, t)[0]

    def values(self, q: np.ndarray) -> np.ndarray:
        return self.evaluate(q, 0.0)[1]

    def gamma(self, q: np.ndarray, v: np.ndarray, t: float) -> np.ndarray:
        return self.evaluate(q, t, v)[2]

    def jacobian(self, q: np.ndarray, n: int) -> sp.csr_matrix:
        """``G = dg/dq`` (count, n), sparse."""
        return sp.csr_matrix((self.values(q), (self.rows, self.cols)), shape=(self.count, n))

    def jacobian_dense(self, q: np.ndarray, n: int) -> np.ndarray:
        return self.jacobian(q, n).toarray()

    def velocity_rhs(self, t: float) -> np.ndarray:
        """``G v = -g_t``: the prescribed velocities of the dof-motion rows, 0 elsewhere."""
        out = np.zeros(self.count)
        out[: len(self.dm_dofs)] = self.prescribed(t, 1)
        return out
