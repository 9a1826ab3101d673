"""Holonomic constraints ``g(q, t) = 0`` of joints and drivers.

Three kinds cover the planar joints (thesis §2.4 f shares dofs where it can; what
cannot be shared is constrained here, with Lagrange multipliers in the Newton system):

* dof motion -- ``q_i - q_i0 - f(t) = 0``: ground pins and clamps (f = 0), angle and
  speed drivers, prescribed nodal displacements;
* body point -- ``x_n - x_b - R(phi_b) r = 0``: a node attached to a rigid body;
* slider -- ``n . (x_n - p) = 0``: a node on a straight guide.

The builders collect them while a model is compiled; :class:`ConstraintSet` stacks
them (rows: dof motions, body points, sliders) on a fixed sparsity pattern and
evaluates residual, Jacobian values and the acceleration right-hand side ``gamma``
(``G a = gamma``) with one compiled call, :func:`constraint_eval`, which the Newton
kernel of the time loop uses as well.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from .timefn import TimeFunction


@njit(cache=True)
def constraint_eval(q, v, dm_dofs, dm_target, dm_acc, bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, g, vals, gamma):
    """Fill residual ``g``, Jacobian values ``vals`` (pattern of :class:`ConstraintSet`) and,
    when ``v`` is not empty, ``gamma`` of every constraint.

    dof motion: ``g = q_i - target``, value 1, gamma = prescribed acceleration;
    body point: ``g = x_n - x_b - R r``, values (1, -1, -dR/dphi r), gamma = -R r phidot^2;
    slider: ``g = n . (x_n - p)``, values n, gamma = 0.
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
    for k in range(bp_n.shape[0]):
        phi = q[bp_b[k, 2]]
        c, s = np.cos(phi), np.sin(phi)
        rx, ry = bp_r[k, 0], bp_r[k, 1]
        Rx, Ry = c * rx - s * ry, s * rx + c * ry
        g[row] = q[bp_n[k, 0]] - q[bp_b[k, 0]] - Rx
        g[row + 1] = q[bp_n[k, 1]] - q[bp_b[k, 1]] - Ry
        vals[o], vals[o + 1], vals[o + 2] = 1.0, -1.0, Ry
        vals[o + 3], vals[o + 4], vals[o + 5] = 1.0, -1.0, -Rx
        if with_v:
            w = v[bp_b[k, 2]]
            gamma[row] = -Rx * w * w
            gamma[row + 1] = -Ry * w * w
        row += 2
        o += 6
    for k in range(sl_n.shape[0]):
        nx, ny = sl_nrm[k, 0], sl_nrm[k, 1]
        g[row] = (q[sl_n[k, 0]] - sl_p[k, 0]) * nx + (q[sl_n[k, 1]] - sl_p[k, 1]) * ny
        vals[o], vals[o + 1] = nx, ny
        if with_v:
            gamma[row] = 0.0
        row += 1
        o += 2


@dataclass
class DofMotion:
    """Builder of dof-motion rows; speed drivers integrate their function."""

    dofs: list[int] = field(default_factory=list)
    base: list[float] = field(default_factory=list)
    functions: list[TimeFunction | None] = field(default_factory=list)
    integrate: list[bool] = field(default_factory=list)

    def add(self, dof: int, base: float, fn: TimeFunction | None = None, integrate: bool = False) -> int:
        self.dofs.append(dof)
        self.base.append(base)
        self.functions.append(fn)
        self.integrate.append(integrate)
        return len(self.dofs) - 1


@dataclass
class BodyPoint:
    """Builder of body-point constraints: arm ``r`` in the body frame, m."""

    node_dofs: list[tuple[int, int]] = field(default_factory=list)
    body_dofs: list[tuple[int, int, int]] = field(default_factory=list)
    arms: list[tuple[float, float]] = field(default_factory=list)

    def add(self, node_dofs: tuple[int, int], body_dofs: tuple[int, int, int], arm: tuple[float, float]) -> None:
        self.node_dofs.append(node_dofs)
        self.body_dofs.append(body_dofs)
        self.arms.append(arm)


@dataclass
class SliderLine:
    """Builder of slider constraints: guide normal and a point of the guide."""

    node_dofs: list[tuple[int, int]] = field(default_factory=list)
    normals: list[tuple[float, float]] = field(default_factory=list)
    points: list[tuple[float, float]] = field(default_factory=list)

    def add(self, node_dofs: tuple[int, int], normal: tuple[float, float], point: tuple[float, float]) -> None:
        self.node_dofs.append(node_dofs)
        self.normals.append(normal)
        self.points.append(point)


class ConstraintSet:
    """All constraints of a system stacked, with their fixed Jacobian pattern ``rows, cols``."""

    def __init__(self, dm: DofMotion, bp: BodyPoint, sl: SliderLine):
        self.dm_dofs = np.array(dm.dofs, dtype=np.int64)
        self.dm_base = np.array(dm.base, dtype=float)
        self.functions = dm.functions
        self.integrate = dm.integrate
        self._moving = [i for i, f in enumerate(dm.functions) if f is not None]
        self.bp_n = np.array(bp.node_dofs, dtype=np.int64).reshape(-1, 2)
        self.bp_b = np.array(bp.body_dofs, dtype=np.int64).reshape(-1, 3)
        self.bp_r = np.array(bp.arms, dtype=float).reshape(-1, 2)
        self.sl_n = np.array(sl.node_dofs, dtype=np.int64).reshape(-1, 2)
        self.sl_nrm = np.array(sl.normals, dtype=float).reshape(-1, 2)
        self.sl_p = np.array(sl.points, dtype=float).reshape(-1, 2)
        k0, k1, k2 = len(self.dm_dofs), len(self.bp_n), len(self.sl_n)
        self.count = k0 + 2 * k1 + k2
        rows = [np.arange(k0)]
        cols = [self.dm_dofs]
        bp_rows = k0 + np.repeat(np.arange(2 * k1), 3)
        bp_cols = np.empty((k1, 2, 3), dtype=np.int64)
        bp_cols[:, 0] = np.stack([self.bp_n[:, 0], self.bp_b[:, 0], self.bp_b[:, 2]], axis=1)
        bp_cols[:, 1] = np.stack([self.bp_n[:, 1], self.bp_b[:, 1], self.bp_b[:, 2]], axis=1)
        rows += [bp_rows, k0 + 2 * k1 + np.repeat(np.arange(k2), 2)]
        cols += [bp_cols.ravel(), self.sl_n.ravel()]
        self.rows = np.concatenate(rows).astype(np.int64)
        self.cols = np.concatenate(cols).astype(np.int64)
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
                f = self.functions[i]
                if self.integrate[i]:
                    motion[:, i] = f.integral(t), f.value(t), f.rate(t)
                else:
                    motion[:, i] = f.value(t), f.rate(t), f.accel(t)
            self._cache_t, self._cache = t, motion
        return self._cache[order]

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

    def jacobian_dense(self, q: np.ndarray, n: int) -> np.ndarray:
        G = np.zeros((self.count, n))
        np.add.at(G, (self.rows, self.cols), self.values(q))
        return G

    def velocity_rhs(self, t: float) -> np.ndarray:
        """``G v = -g_t``: the prescribed velocities of the dof-motion rows, 0 elsewhere."""
        out = np.zeros(self.count)
        out[: len(self.dm_dofs)] = self.prescribed(t, 1)
        return out
