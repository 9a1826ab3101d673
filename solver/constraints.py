"""Holonomic constraints ``g(q, t) = 0`` of joints and drivers, vectorised by kind.

Three kinds cover the planar joints (thesis §2.4 f shares dofs where it can; what
cannot be shared is constrained here, with Lagrange multipliers in the Newton system):

* :class:`DofMotion` -- ``q_i - q_i0 - f(t) = 0``: ground pins and clamps (f = 0),
  angle and speed drivers, prescribed nodal displacements.
* :class:`BodyPoint` -- ``x_n - x_b - R(phi_b) r = 0``: a node attached to a rigid body.
* :class:`SliderLine` -- ``n . (x_n - p) = 0``: a node on a straight guide.

Each kind returns its residual, its Jacobian entries on a fixed sparsity pattern,
and the right-hand side of the acceleration-level equation ``G a = gamma``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from numba import njit

from .timefn import TimeFunction


@njit(cache=True)
def _body_point_eval(q, nd, bd, arms, g, vals, gamma, v):
    """Residual ``x_n - x_b - R(phi) r``, Jacobian values on the (1, -1, -dR r) pattern and
    ``gamma = -R r phidot^2`` of every body-point constraint (``v`` may be empty)."""
    for k in range(nd.shape[0]):
        phi = q[bd[k, 2]]
        c, s = np.cos(phi), np.sin(phi)
        rx, ry = arms[k, 0], arms[k, 1]
        Rx, Ry = c * rx - s * ry, s * rx + c * ry
        g[2 * k] = q[nd[k, 0]] - q[bd[k, 0]] - Rx
        g[2 * k + 1] = q[nd[k, 1]] - q[bd[k, 1]] - Ry
        o = 6 * k
        vals[o], vals[o + 1], vals[o + 2] = 1.0, -1.0, Ry  # -dR/dphi r = (Ry, -Rx)
        vals[o + 3], vals[o + 4], vals[o + 5] = 1.0, -1.0, -Rx
        if v.shape[0]:
            w = v[bd[k, 2]]
            gamma[2 * k] = -Rx * w * w
            gamma[2 * k + 1] = -Ry * w * w


@dataclass
class DofMotion:
    dofs: list[int] = field(default_factory=list)
    base: list[float] = field(default_factory=list)
    functions: list[TimeFunction | None] = field(default_factory=list)
    integrate: list[bool] = field(default_factory=list)  # speed drivers: f is a rate

    def add(self, dof: int, base: float, fn: TimeFunction | None = None, integrate: bool = False) -> int:
        self.dofs.append(dof)
        self.base.append(base)
        self.functions.append(fn)
        self.integrate.append(integrate)
        return len(self.dofs) - 1

    @property
    def count(self) -> int:
        return len(self.dofs)

    def finalize(self) -> None:
        self._dofs = np.array(self.dofs, dtype=int)
        self._base = np.array(self.base, dtype=float)
        self._moving = [i for i, f in enumerate(self.functions) if f is not None]
        self._cache_key: tuple[float, int] | None = None
        self._ones = np.ones(self.count)

    def prescribed(self, t: float, order: int = 0) -> np.ndarray:
        """Prescribed displacement (order 0), velocity (1) or acceleration (2) of each row."""
        key = (t, order)
        if self._cache_key == key:
            return self._cache
        out = np.zeros(self.count)
        for i in self._moving:
            f = self.functions[i]
            if self.integrate[i]:
                out[i] = (f.integral(t), f.value(t), f.rate(t))[order]
            else:
                out[i] = (f.value(t), f.rate(t), f.accel(t))[order]
        self._cache_key, self._cache = key, out
        return out

    def residual(self, q: np.ndarray, t: float) -> np.ndarray:
        return q[self._dofs] - self._base - self.prescribed(t)

    def pattern(self) -> tuple[np.ndarray, np.ndarray]:
        return np.arange(self.count), self._dofs

    def values(self, q: np.ndarray) -> np.ndarray:
        return self._ones

    def gamma(self, q: np.ndarray, v: np.ndarray, t: float) -> np.ndarray:
        return self.prescribed(t, 2)

    def velocity_rhs(self, t: float) -> np.ndarray:
        """``G v = -g_t``: the prescribed velocities."""
        return self.prescribed(t, 1)


@dataclass
class BodyPoint:
    node_dofs: list[tuple[int, int]] = field(default_factory=list)
    body_dofs: list[tuple[int, int, int]] = field(default_factory=list)
    arms: list[tuple[float, float]] = field(default_factory=list)  # r in the body frame, m

    def add(self, node_dofs: tuple[int, int], body_dofs: tuple[int, int, int], arm: tuple[float, float]) -> None:
        self.node_dofs.append(node_dofs)
        self.body_dofs.append(body_dofs)
        self.arms.append(arm)

    @property
    def count(self) -> int:
        return 2 * len(self.node_dofs)

    def finalize(self) -> None:
        self._n = np.array(self.node_dofs, dtype=int).reshape(-1, 2)
        self._b = np.array(self.body_dofs, dtype=int).reshape(-1, 3)
        self._r = np.array(self.arms, dtype=float).reshape(-1, 2)

    def _eval(self, q: np.ndarray, v: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        g, vals, gamma = np.empty(self.count), np.empty(3 * self.count), np.empty(self.count)
        _body_point_eval(q, self._n, self._b, self._r, g, vals, gamma, np.empty(0) if v is None else v)
        return g, vals, gamma

    def residual(self, q: np.ndarray, t: float) -> np.ndarray:
        return self._eval(q)[0]

    def pattern(self) -> tuple[np.ndarray, np.ndarray]:
        k = len(self._n)
        rows = np.repeat(np.arange(2 * k), 3)
        cols = np.empty((k, 2, 3), dtype=int)
        cols[:, 0] = np.stack([self._n[:, 0], self._b[:, 0], self._b[:, 2]], axis=1)
        cols[:, 1] = np.stack([self._n[:, 1], self._b[:, 1], self._b[:, 2]], axis=1)
        return rows, cols.ravel()

    def values(self, q: np.ndarray) -> np.ndarray:
        return self._eval(q)[1]

    def gamma(self, q: np.ndarray, v: np.ndarray, t: float) -> np.ndarray:
        return self._eval(q, v)[2]

    def velocity_rhs(self, t: float) -> np.ndarray:
        return np.zeros(self.count)


@dataclass
class SliderLine:
    node_dofs: list[tuple[int, int]] = field(default_factory=list)
    normals: list[tuple[float, float]] = field(default_factory=list)
    points: list[tuple[float, float]] = field(default_factory=list)

    def add(self, node_dofs: tuple[int, int], normal: tuple[float, float], point: tuple[float, float]) -> None:
        self.node_dofs.append(node_dofs)
        self.normals.append(normal)
        self.points.append(point)

    @property
    def count(self) -> int:
        return len(self.node_dofs)

    def finalize(self) -> None:
        self._n = np.array(self.node_dofs, dtype=int).reshape(-1, 2)
        self._nrm = np.array(self.normals, dtype=float).reshape(-1, 2)
        self._vals = self._nrm.ravel().copy()
        self._p = np.array(self.points, dtype=float).reshape(-1, 2)

    def residual(self, q: np.ndarray, t: float) -> np.ndarray:
        d = q[self._n] - self._p
        return d[:, 0] * self._nrm[:, 0] + d[:, 1] * self._nrm[:, 1]

    def pattern(self) -> tuple[np.ndarray, np.ndarray]:
        return np.repeat(np.arange(self.count), 2), self._n.ravel()

    def values(self, q: np.ndarray) -> np.ndarray:
        return self._vals

    def gamma(self, q: np.ndarray, v: np.ndarray, t: float) -> np.ndarray:
        return np.zeros(self.count)

    def velocity_rhs(self, t: float) -> np.ndarray:
        return np.zeros(self.count)


class ConstraintSet:
    """All constraints of a system stacked: rows of :class:`DofMotion`, then
    :class:`BodyPoint`, then :class:`SliderLine`."""

    def __init__(self, dof_motion: DofMotion, body_point: BodyPoint, slider: SliderLine):
        self.kinds = [dof_motion, body_point, slider]
        for k in self.kinds:
            k.finalize()
        self.offsets = np.cumsum([0] + [k.count for k in self.kinds])
        self.count = int(self.offsets[-1])
        rows, cols = [], []
        for off, k in zip(self.offsets, self.kinds):
            r, c = k.pattern()
            rows.append(r + off)
            cols.append(c)
        self.rows = np.concatenate(rows).astype(int) if rows else np.zeros(0, int)
        self.cols = np.concatenate(cols).astype(int) if cols else np.zeros(0, int)

    def residual(self, q: np.ndarray, t: float) -> np.ndarray:
        return np.concatenate([k.residual(q, t) for k in self.kinds])

    def values(self, q: np.ndarray) -> np.ndarray:
        return np.concatenate([k.values(q) for k in self.kinds])

    def jacobian_dense(self, q: np.ndarray, n: int) -> np.ndarray:
        G = np.zeros((self.count, n))
        np.add.at(G, (self.rows, self.cols), self.values(q))
        return G

    def gamma(self, q: np.ndarray, v: np.ndarray, t: float) -> np.ndarray:
        return np.concatenate([k.gamma(q, v, t) for k in self.kinds])

    def velocity_rhs(self, t: float) -> np.ndarray:
        return np.concatenate([k.velocity_rhs(t) for k in self.kinds])
