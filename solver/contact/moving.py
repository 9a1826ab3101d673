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

A free mass's row ``n(s) . (x_m - p(q, s)) = 0`` holds at the point ``s(q)`` of the link
nearest the mass; as ``s`` makes ``x_m - p`` normal to the link, the row's derivative is
``n`` on the mass and ``-n J`` on the element whatever ``ds/dq`` is.  When ``s`` passes an end
the step is cut to end there (within :data:`END_TOLERANCE` of the length), the row is
dropped and the mass flies on free (an event ``left_link``).

Each frame reports per entry (:func:`mover_outputs`) its arc length ``s``, its speed along
the link and the force it exerts on the link, resolved on the deformed link's normal
``n = e_z x t`` and tangent ``t`` (towards larger ``s``) at its point.  The rows' generalised
force is ``+C lambda`` (:mod:`solver.system.bordered`), so a support pushes the link with
``lambda n0`` and a mass with ``-lambda`` (the force on the mass is ``+lambda``).
"""
from __future__ import annotations

import numpy as np

from ..system.assembly import Assembly
from ..system.bordered import POSITION, ContactRows
from ..system.moving import Mover
from ..system.state import State
from .base import ContactModel


#: a free mass leaves the link when its ``s`` passes an end by less than this fraction of the length
END_TOLERANCE = 1e-7


def mover_rows(m: Mover, q: np.ndarray, v: np.ndarray, t: float,
               tau: float = 0.0) -> list[tuple[np.ndarray, np.ndarray, float, float]]:
    """``(dofs, dg/dq on them, g, dg/dt)`` of each row of mover ``m`` at ``(q, v, t + tau)``
    (``dg/dt`` the total rate along the velocities ``v``).  A shift ``tau`` moves ``s`` along its
    Taylor expansion from ``t`` with the right-hand rate there, ``s + s_dot tau + s_ddot tau^2 / 2``:
    a difference across a kink of ``s(t)`` (the start of a ramp at t = 0) then sees the motion the
    run takes from ``t``, not an acceleration of the kink's size over the difference's width.  The
    shifted point stays where the point is at ``t``, on its element's cubic (extended beyond the
    element's ends) or on the track: a difference about ``t`` is the derivative of that one
    interpolation, never a difference across a node (where the curvature of the interpolation
    jumps) or across an end of the link."""
    path = m.path
    if m.free:
        return [_free_row(m, q, v)]
    f = m.position
    s_ddot = f.accel(t)
    s = f.value(t) + (f.rate(t) + 0.5 * s_ddot * tau) * tau
    s_dot = f.rate(t) + s_ddot * tau
    if m.kind == "support":
        held = min(max(s, 0.0), path.length)
        s_dot = s_dot if held == s else 0.0
        p, dofs, J, dp_ds = path.point(q, held, path.locate(f.value(t))[0])
        n0 = path.normal
        R = n0 @ J
        return [(dofs, R, float(n0 @ (p - path.sketched(held))), float(R @ v[dofs] + n0 @ (dp_ds - path.direction) * s_dot))]
    mx, my = m.mass_dofs
    xm, vm = q[[mx, my]], v[[mx, my]]
    if not path.on(f.value(t)):  # on the rigid track along the sketched line
        g, g_dot = xm - path.sketched(s), vm - path.direction * s_dot
        return [(np.array([d]), np.ones(1), float(g[i]), float(g_dot[i])) for i, d in enumerate((mx, my))]
    p, dofs, J, dp_ds = path.point(q, s, path.locate(f.value(t))[0])
    g, g_dot = xm - p, vm - J @ v[dofs] - dp_ds * s_dot
    return [(np.concatenate([[d], dofs]), np.concatenate([[1.0], -J[i]]), float(g[i]), float(g_dot[i]))
            for i, d in enumerate((mx, my))]


def _free_row(m: Mover, q: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, float]:
    """The row ``n(s) . (x_m - p(q, s))`` of a free mass at its nearest point ``s`` of the link."""
    xm, vm = q[list(m.mass_dofs)], v[list(m.mass_dofs)]
    p, dofs, J, n, _t, _stretch = _frame_at(m, q, m.path.project(q, xm))
    R = np.concatenate([n, -n @ J])
    return np.concatenate([m.mass_dofs, dofs]), R, float(n @ (xm - p)), float(n @ (vm - J @ v[dofs]))


def _frame_at(m: Mover, q: np.ndarray, s: float):
    """``(p, dofs, J, n, t, |dp/ds|)`` of the link's point at ``s`` (held within the link): the
    deformed link's unit normal ``n = e_z x t`` and tangent ``t`` there."""
    p, dofs, J, dp_ds = m.path.point(q, min(max(s, 0.0), m.path.length))
    stretch = float(np.linalg.norm(dp_ds))
    t = dp_ds / stretch
    return p, dofs, J, np.array([-t[1], t[0]]), t, stretch


def mover_outputs(movers: list[Mover], q: np.ndarray, v: np.ndarray, t: float, lam: dict[str, np.ndarray]
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per mover: arc length ``s`` (m), speed along the link ``ds/dt`` (m/s), and the force
    ``(F_n, F_t)`` (N) it exerts on the link, on the deformed link's normal and tangent at its
    point (zero while off the link).  ``lam`` holds the multipliers (N) of the movers whose rows
    are in force, by id."""
    s_out, speed, force = np.zeros(len(movers)), np.zeros(len(movers)), np.zeros((len(movers), 2))
    for i, m in enumerate(movers):
        path = m.path
        if m.free:
            xm, vm = q[list(m.mass_dofs)], v[list(m.mass_dofs)]
            s = path.project(q, xm)
        else:
            s = m.position.value(t)
        _p, dofs, J, n, tangent, stretch = _frame_at(m, q, s)
        s_out[i] = s
        speed[i] = float(tangent @ (vm - J @ v[dofs])) / stretch if m.free else m.position.rate(t)
        on_link = np.zeros(2)
        if m.id in lam and m.kind == "support":
            on_link = lam[m.id][0] * path.normal
        elif m.id in lam and m.free:
            on_link = -lam[m.id][0] * n
        elif m.id in lam and path.on(s):  # a prescribed mass (on its rigid track the force is the track's)
            on_link = -lam[m.id][:2]
        elif m.kind == "force" and path.on(s):
            on_link = m.force
        force[i] = (float(n @ on_link), float(tangent @ on_link))
    return s_out, speed, force


class MovingModel(ContactModel):
    """The rows of a run's moving supports and masses (no contact pairs of its own)."""

    kind = "moving"
    impact_steps = False

    def __init__(self, asm: Assembly, settings: dict, events: list[dict]):
        super().__init__(asm, [], settings, events, settings["step"])
        self.all = list(asm.sys.movers)
        self.movers = [m for m in self.all if m.rows]  # those with rows in force (free masses leave)
        self._t: float | None = None  # the end of the step being attempted
        self._start: State | None = None
        self._t_rows = 0.0  # the time the rows were last written for
        self.tol_g = 1e-10 * asm.sys.size

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
        dt = 1e-7 * self.asm.sys.size / max(float(np.linalg.norm(v)), 1.0)  # the same wherever the model is drawn

        def rates(tau: float) -> np.ndarray:
            return np.array([r for m in self.movers for (_d, _R, _g, r) in mover_rows(m, q + tau * v, v, t, tau)])
        return -(rates(dt) - rates(-dt)) / (2 * dt)

    # ------------------------------------------------------------------ free masses leaving
    def _beyond(self, m: Mover, q: np.ndarray) -> float:
        """How far (m) a free mass's nearest point is beyond the link's nearer end (negative: on it)."""
        s = m.path.project(q, q[list(m.mass_dofs)])
        return max(-s, s - m.path.length)

    def event_time(self, old: State, new: State, lam_old: np.ndarray, lam_new: np.ndarray) -> float | None:
        """The time a free mass reaches an end of its link (linear in its ``s`` over the step)."""
        times = []
        for m in self.movers:
            if not m.free:
                continue
            before, after = self._beyond(m, old.q), self._beyond(m, new.q)
            if after > END_TOLERANCE * m.path.length and before < after:
                times.append(old.t + (new.t - old.t) * max(0.0, -before) / (after - before))
        return min(times) if times else None

    def switch(self, old: State | None, new: State, lam_c: np.ndarray) -> bool:
        """A free mass at an end of its link leaves it (its row is dropped); at the start of a
        run the accelerations and multipliers are made consistent with the rows."""
        def leaves(m: Mover) -> bool:
            beyond, tol = self._beyond(m, new.q), END_TOLERANCE * m.path.length
            if old is None:  # starts off the link
                return beyond > tol
            return beyond >= -tol and beyond > self._beyond(m, old.q)
        leaving = [m for m in self.movers if m.free and leaves(m)]
        for m in leaving:
            self.movers.remove(m)
            self.events.append({"time_s": new.t, "kind": "left_link", "moving": m.id,
                                "s_m": m.path.project(new.q, new.q[list(m.mass_dofs)])})
        return old is None or bool(leaving)

    def jumps(self, s: State, held) -> tuple[State, list]:
        """The prescribed masses' velocities made the rates of their prescribed positions, ``v_m = J v +
        dp/ds s_dot`` (their rows' ``dg/dt = 0``; the link's velocities are not touched); no impulses.
        The rows hold positions only, and the trapezoidal rule leaves a mass whose path kinks -- from a
        bent link's end onto its track -- a velocity error it never damps: ``moving_mass_beam``'s mass
        ran on its track at (15.703, -0.023) m/s instead of (15.708, 0), the error worth 3.2 J of
        kinetic energy at h = 1 ms and 12.5 J at h / 4 when it left the beam."""
        masses = [m for m in self.movers if m.kind == "mass" and not m.free]
        if not masses:
            return s, []
        v = s.v.copy()
        for m in masses:
            for dofs, _R, _g, rate in mover_rows(m, s.q, s.v, s.t):
                v[dofs[0]] -= rate  # the row's coefficient on the mass's own dof is 1
        return State(s.t, s.q, v, s.a, s.lam, s.a_pseudo, s.lam_c), []

    # ------------------------------------------------------------------ outputs
    def reaction_power(self, s: State, lam_c: np.ndarray) -> float:
        """``-sum lambda_k dg_k/dt|_q`` (W): the power of the rows' forces ``+C lambda`` (``C = R``) on the
        system at ``s``, ``lambda R v``, with ``R v = -dg/dt|_q`` the rate the row prescribes (the rows
        hold at velocity level to the integrator's error only: ``R v`` of the iterates carries the
        trapezoidal rule's step-to-step velocity error, the prescribed rate does not).  A support's
        reaction times its travel along the deformed link, ``-lambda n0 . (dp/ds - d) s_dot``, does work
        as it pushes the link back onto the sketched line; a prescribed mass's force ``lambda . dp/ds
        s_dot`` drives it along the link; a free mass's row does not depend on time (no work)."""
        if lam_c.shape[0] != self.row_count():
            return 0.0
        g_t = [r - float(R @ s.v[dofs]) for m in self.movers for (dofs, R, _g, r) in mover_rows(m, s.q, s.v, s.t)]
        return -float(np.dot(lam_c, g_t))

    def outputs(self, s: State, lam_c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:func:`mover_outputs` of every mover at ``s`` (``lam_c`` the multipliers of the rows in force)."""
        lam, r = {}, 0
        for m in self.movers:
            if lam_c.shape[0] >= r + m.rows:
                lam[m.id] = lam_c[r:r + m.rows]
            r += m.rows
        return mover_outputs(self.all, s.q, s.v, s.t, lam)

    def frame_data(self, s: State, lam_c: np.ndarray, out: dict[str, np.ndarray]) -> None:
        """The movers have no contact columns (their outputs: :meth:`outputs`)."""
