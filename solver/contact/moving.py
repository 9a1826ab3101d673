"""Rows of the moving supports and moving masses (:mod:`solver.system.moving`), bordering the Newton system.

A support or mass travelling along a flexible link is a holonomic but time-variant
constraint ``g(q, t) = 0`` whose element, and weights on the element's dofs, change as
``s(t)`` travels: it does not fit the fixed pattern of the joints
(:mod:`solver.system.constraints`), and takes position rows of the bordered Newton
system instead (:mod:`solver.system.bordered`, the rows of the Lagrange contact model),
always closed.  Each row is linearised at the iterate, ``R . q - b = 0`` with
``R = dg/dq`` and ``b = R . q - g(q, t_{N+1})``, and re-linearised at the converged
iterate until the exact ``g`` holds (``refresh``); its acceleration right-hand side
``gamma = -d/dt (dg/dq v + dg/dt)`` at ``a = 0`` is a difference along the motion.  The
multipliers are the support's reaction along the sketched normal and the force on the
mass (N).
"""
from __future__ import annotations

import numpy as np

from ..system.assembly import Assembly
from ..system.bordered import POSITION, ContactRows
from ..system.moving import Mover
from ..system.state import State
from .base import ContactModel


def mover_rows(m: Mover, q: np.ndarray, v: np.ndarray, t: float) -> list[tuple[np.ndarray, np.ndarray, float, float]]:
    """``(dofs, dg/dq on them, g, dg/dt)`` of each row of mover ``m`` at ``(q, v, t)``
    (``dg/dt`` the total rate along the velocities ``v``)."""
    path = m.path
    s, s_dot = m.position.value(t), m.position.rate(t)
    if m.kind == "support":
        held = min(max(s, 0.0), path.length)
        s_dot = s_dot if held == s else 0.0
        p, dofs, J, dp_ds = path.point(q, held)
        n0 = path.normal
        R = n0 @ J
        return [(dofs, R, float(n0 @ (p - path.sketched(held))), float(R @ v[dofs] + n0 @ (dp_ds - path.direction) * s_dot))]
    mx, my = m.mass_dofs
    xm, vm = q[[mx, my]], v[[mx, my]]
    if not path.on(s):  # on the rigid track along the sketched line
        g, g_dot = xm - path.sketched(s), vm - path.direction * s_dot
        return [(np.array([d]), np.ones(1), float(g[i]), float(g_dot[i])) for i, d in enumerate((mx, my))]
    p, dofs, J, dp_ds = path.point(q, s)
    g, g_dot = xm - p, vm - J @ v[dofs] - dp_ds * s_dot
    return [(np.concatenate([[d], dofs]), np.concatenate([[1.0], -J[i]]), float(g[i]), float(g_dot[i]))
            for i, d in enumerate((mx, my))]


class MovingModel(ContactModel):
    """The rows of a run's moving supports and masses (no contact pairs of its own)."""

    kind = "moving"
    impact_steps = False

    def __init__(self, asm: Assembly, settings: dict, events: list[dict]):
        super().__init__(asm, [], settings, events, settings["step"])
        self.movers = [m for m in asm.sys.movers if m.rows]
        self._t: float | None = None  # the end of the step being attempted
        self._start: State | None = None
        self._t_rows = 0.0  # the time the rows were last written for
        self.tol_g = 1e-10 * max(1.0, float(np.abs(asm.sys.q0).max(initial=0.0)))

    def row_count(self) -> int:
        return sum(m.rows for m in self.movers)

    def begin_step(self, s: State, h: float) -> None:
        self._start, self._t = s, s.t + h

    def _time(self, s: State) -> float:
        """The time the rows are written for: the step's end for its start state, else the state's."""
        return self._t if s is self._start else s.t

    def fill_rows(self, s: State, rows: ContactRows, start: int) -> None:
        self._t_rows = self._time(s)
        self._write(s.q, s.v, self._t_rows, rows, start)

    def refresh(self, q: np.ndarray, v: np.ndarray, rows: ContactRows, start: int) -> bool:
        """Re-linearise the rows at ``q`` when the exact ``g`` left zero (True then), else
        bring their ``gamma`` to ``(q, v)``."""
        t = self._t_rows
        exact = [g for m in self.movers for (_d, _R, g, _r) in mover_rows(m, q, v, t)]
        changed = max(np.abs(exact), default=0.0) > self.tol_g
        if changed:
            self._write(q, v, t, rows, start)
        else:
            rows.gamma[start:start + len(exact)] = self._gamma(q, v, t)
        return changed

    def _write(self, q: np.ndarray, v: np.ndarray, t: float, rows: ContactRows, start: int) -> None:
        r = start
        for m in self.movers:
            for dofs, R, g, _rate in mover_rows(m, q, v, t):
                rows.dofs[r, :] = 0
                rows.row[r, :] = rows.col[r, :] = 0.0
                rows.dofs[r, :len(dofs)] = dofs
                rows.row[r, :len(dofs)] = rows.col[r, :len(dofs)] = R
                rows.level[r] = POSITION
                rows.rhs[r] = R @ q[dofs] - g
                r += 1
        rows.gamma[start:r] = self._gamma(q, v, t)

    def _gamma(self, q: np.ndarray, v: np.ndarray, t: float) -> np.ndarray:
        """``gamma = -d2g/dt2`` at zero acceleration: the central difference of the rates
        ``dg/dt`` along the motion ``(q + tau v, t + tau)`` at fixed ``v``; it holds the
        curvature of the path and the convective terms of the moving mass."""
        dt = 1e-7 * max(1.0, float(np.abs(q).max(initial=0.0))) / max(float(np.abs(v).max(initial=0.0)), 1.0)

        def rates(tau: float) -> np.ndarray:
            return np.array([r for m in self.movers for (_d, _R, _g, r) in mover_rows(m, q + tau * v, v, t + tau)])
        return -(rates(dt) - rates(-dt)) / (2 * dt)

    def switch(self, old: State | None, new: State, lam_c: np.ndarray) -> bool:
        """At the start of a run: the accelerations and multipliers are made consistent with the rows."""
        return old is None

    def frame_data(self, s: State, lam_c: np.ndarray, out: dict[str, np.ndarray]) -> None:
        """The movers have no contact columns."""

