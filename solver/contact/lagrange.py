"""The Lagrange-multiplier contact model, thesis ch. 4 and App. B (``model.kind = "lagrange"``).

Strategy (§4.8, fig. 4.1), per pair:

* **Onset** (§4.1, §4.7): the predictor of ch. 3 (eqs. 3.2-3.4) ends a step where the gap closes; a pair
  within ``TOL_imp`` whose points approach then receives the momentum-balance impulse that makes the normal
  relative velocity vanish (Routh's method ended at maximum compression, e = 0, with the pair's friction; the
  joints and the other pairs in contact held, from the velocities the joints allow:
  :func:`.jump.joint_velocities`), on ``M`` as §4.7 has it (the step's Newmark matrix was tried and dropped:
  its jump depends on the step and the mesh through ``nu h^2 K_T``, docs/solver.md).  Momentum is conserved;
  the kinetic energy it removes is booked (restitution and friction works).  The gap is held at its value
  then.  The pair's ``e`` and ``law`` are not used (:data:`solver.model.contact_rules.UNUSED_BY_MODEL`).  On
  flexible elements the first element transit after it is taken in the steps of :data:`ONSET_STEPS`, the first
  damped and from an acceleration of zero (a departure).
* **Forces** (4.2): the multipliers over each step, ``(1 - tau) lambda_N + tau lambda_N+1``
  (:meth:`LagrangeModel.step_ended`, a departure).
* **Sliding** (§4.5): one row, the normal gap held (4.15, 4.18) by the multiplier ``lambda_n = F_n``, whose
  force acts along ``eta = alpha - mu_D [beta] sigma`` (4.16-4.17): the friction force ``F_t = -mu_D F_n
  sigma`` comes with the normal force, ``sigma`` the sign of the slip velocity at the start of the step.
  Sliding is assumed first (§4.3).
* **Sticking** (§4.6): two rows, the normal gap held and the tangential relative velocity held at zero, with
  ``lambda_n = F_n`` and ``lambda_t = F_t`` (4.27-4.29).  Pairs sticking on one rigid body may hold its motion
  twice (a rod lying on a line on both ends): the sum of their tangential forces is determinate, the split is
  not (static indeterminacy) and is the one of least norm (:func:`solver.system.bordered.schur_inverse`),
  which the stick test (4.6) judges pair by pair.
* **Transitions**: slide -> stick when the slip velocity changes sign (4.8) or falls to ``eps`` of its
  previous value (4.9, ``model.stick_tolerance``); stick -> slide when ``|F_t| > mu_s F_n`` (4.6), sliding
  then in the direction opposite to the force that held the stick (eq. 3.62 on the line of contact); release
  when ``F_n`` would become tensile (§4.1).  Each is located within the step by taking the step again to end
  where the switching quantity crosses zero (linear interpolation), and the accelerations and multipliers are
  made consistent with the new rows.  A released pair meets again through the predictor and a new onset.

The rows are those of :mod:`solver.system.bordered`, solved in the Newton system of the Newmark step with the
banded factors, as App. B does (eqs. B.10-B.15, B.24-B.31).  Departure: the stick row holds the tangential
*velocity* (``[beta]^T qdot = 0``), not the gap (4.32), whose slip velocity alternates in sign (docs/solver.md).
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ..system.assembly import Assembly
from ..system.bordered import POSITION, VELOCITY, ContactRows, row_dot
from ..system.contact_pairs import ContactGeometry, ContactPair
from ..system.impact_times import LAGRANGE_COURANT, struck_transit
from ..system.integrator import integrator_parameters
from ..system.state import State
from .base import ContactModel
from .jump import Held, held_jump, sticks_redundantly
from .lagrange_outputs import LagrangeOutputs
from .routh import ImpactResult
from .slip_stop import overrun_secant, slip_end, stop_slip

OPEN, SLIDE, STICK = 0, 1, 2  # indices into CONTACT_STATES

#: eq. (4.9)'s default tolerance: the slip velocity vanished below this fraction of a step before's (thesis: 1e-3)
STICK_TOLERANCE = 1e-3

#: the steps after an onset on flexible elements: (fraction of the pair's own impact step, the Courant number
#: 1 / sqrt(2) on its struck elements, :func:`~solver.system.impact_times.lagrange_impact_step`; Newmark tau,
#: or None for the run's).  The jump on ``M`` (§4.7) sets the mesh's highest modes going, and the step mean
#: force rang 9.4 % over wave theory's plateau 2.1 element transits after onset (the two bars of thesis 5.1.2
#: at that impact step); three steps of 0.35 transits each, the first damped (tau = 0.9, eq. 5.1) and taken from
#: an acceleration of zero, and it is within 3.5 % from one transit on (docs/solver.md, departure 7).  A damped
#: Newmark step dissipates its algorithmic energy ``T + U + (nu - tau / 2) h^2 qddot^T M qddot`` (on a linear
#: system), not ``T + U``: from the onset's large accelerations ``T + U`` rose by up to ``0.04 h^2`` times their
#: fall (a block striking a four-bar's flexible link: by 0.106 of the energy in play, whatever the step and the
#: mesh); from an acceleration of zero the two are equal at the start, and ``T + U`` cannot rise
ONSET_STEPS = ((0.5, 0.9), (0.5, None), (0.5, None))


class LagrangeModel(LagrangeOutputs, ContactModel):
    """Contact held by Lagrange multipliers with sliding and sticking modes (thesis ch. 4)."""

    kind = "lagrange"

    def __init__(self, asm: Assembly, pairs: list[tuple[int, ContactPair]], settings: dict, events: list[dict],
                 impact_step: float):
        super().__init__(asm, pairs, settings, events, impact_step)
        count = len(self.pairs)
        self.sigma = np.zeros(count)  # slip direction while sliding (0: no friction force)
        self.hold = np.zeros(count)  # the gap held while in contact, m
        self.segment = np.full(count, -1)  # the segment of a link target the rows were written for
        self.eps = np.array([p.model.get("stick_tolerance", STICK_TOLERANCE) for p in self.pairs])
        self.tol_g = 1e-10 * asm.sys.size
        self._pending: tuple[float, int, str] | None = None  # a switch the step was taken again to land on
        self._held: dict[int, float] = {}  # pairs to hold for the step taken again from this time (s)
        self._overshoots: dict[int, tuple[float, float, float]] = {}  # a slip's last overrun end: (t0, t1 s, phi m/s)
        self._released: set[int] = set()  # pairs released at the end of the current step
        self._touched: set[int] = set()  # pairs whose contact began at the end of the current step
        self._frictional = np.array([p.mu_s > 0.0 or p.mu_d > 0.0 for p in self.pairs])
        self.mass = np.zeros(count)  # the pair's effective mass along the normal, 1 / D_nn at onset, kg
        self._step_F = np.full((count, 2), np.nan)  # (F_n, F_t) over the last step, N (nan: open then)
        self._step_mode = np.zeros(count, dtype=int)  # the mode of each pair during the last step
        self._start = 0  # the first of the model's rows in the rows of all models (fill_rows)
        self._left: dict[int, dict] = {}  # sticks begun with a reversed slip left: their stick events
        self._stopped = 0.0  # friction dissipated by the jumps that stopped them, J (take_friction)
        # the step ONSET_STEPS are fractions of, s: inf where they are not taken (a pair striking no flexible
        # element, or a run integrated by generalized-alpha)
        newmark = integrator_parameters(settings)[2:] == (0.0, 0.0)
        self._onset_unit = np.array([LAGRANGE_COURANT * struck_transit(asm.sys, p) if newmark else math.inf
                                     for p in self.pairs])
        self._run_step = settings["step"]
        self._onset_steps: tuple = ()  # what remains of ONSET_STEPS after the last onset: (step s, tau)

    # ------------------------------------------------------------------ rows
    def _rows_of(self, j: int) -> int:
        return (0, 1, 2)[self.state[j]]

    def row_count(self) -> int:
        return sum(self._rows_of(j) for j in range(len(self.pairs)))

    def _first_row(self, j: int) -> int:
        return sum(self._rows_of(i) for i in range(j))

    def _geometry(self, j: int, q: np.ndarray) -> ContactGeometry:
        """Pair ``j`` at ``q`` (a state's), on the segment its rows were written for while it can be."""
        return self.pair_geometry(j, q, int(self.segment[j]))

    def _v_t(self, j: int, s: State) -> float:
        return float(self._geometry(j, s.q).velocity(s.v)[1])

    def _a_t(self, j: int, s: State) -> float:
        """The tangential relative acceleration of pair ``j`` at ``s`` along the rows (m/s²)."""
        return float(self._geometry(j, s.q).velocity(s.a)[1])

    def fill_rows(self, s: State, rows: ContactRows, start: int) -> None:
        """The rows of the closed pairs from ``s``; a point past its rows' segment of a link target is handed
        to the next segment with its gap there (past a kink the lines' gaps differ by about ``r theta^2 / 2``,
        which the position row 4.15 would close in one step: docs/solver.md)."""
        self._start = start
        for j in range(len(self.pairs)):
            if self.state[j]:
                g = self._geometry(j, s.q)
                if g.segment != self.segment[j] and g.reachable:
                    self.hold[j] = g.gap
                self._write(j, g, s.q, s.v, rows, start + self._first_row(j))

    def _write(self, j: int, g: ContactGeometry, q: np.ndarray, v: np.ndarray, rows: ContactRows, r: int) -> None:
        """The rows of pair ``j`` linearised at ``q``: the normal gap (4.15, position row) and,
        sticking, the tangential velocity (velocity row)."""
        pair = self.pairs[j]
        self.segment[j] = g.segment
        Jn, Jt = g.Jc
        gamma = self._gamma(pair, g, q, v)
        rows.dofs[r] = g.dofs
        rows.row[r] = Jn
        rows.level[r] = POSITION
        rows.rhs[r] = row_dot(Jn, g.dofs, q) - g.gap + self.hold[j]
        rows.gamma[r] = gamma[0]
        if self.state[j] == STICK:
            rows.col[r] = Jn
            rows.dofs[r + 1] = g.dofs
            rows.col[r + 1] = rows.row[r + 1] = Jt
            rows.level[r + 1] = VELOCITY
            rows.rhs[r + 1] = 0.0
            rows.gamma[r + 1] = gamma[1]
        else:
            rows.col[r] = Jn - pair.mu_d * self.sigma[j] * Jt  # eta, eq. (4.17)

    def _gamma(self, pair: ContactPair, g: ContactGeometry, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        """``-Jdot v`` of the two rows (zero for straight targets), by a difference along ``v``."""
        if not pair.curved:
            return np.zeros(2)
        speed = float(np.linalg.norm(v))
        if speed == 0.0:
            return np.zeros(2)
        dt = 1e-7 * self.asm.sys.size / speed  # a step of 1e-7 of the model's size, wherever it is drawn
        g2 = pair.geometry(q + dt * v, g.segment)
        return -((g2.J - g.J) @ v) / dt if g2.reachable else np.zeros(2)  # at the target's end: its line

    def refresh(self, q: np.ndarray, v: np.ndarray, rows: ContactRows, start: int) -> bool:
        """Re-linearise the rows of curved targets whose exact gap left the held value (True
        then); else bring their ``gamma`` to ``(q, v)``."""
        changed = False
        for j, pair in enumerate(self.pairs):
            g = pair.held_geometry(q, int(self.segment[j])) if self.state[j] and pair.curved else None
            if g is not None:  # None: past the target's end, held on the rows' line until the step ends
                r = start + self._first_row(j)
                if abs(g.gap - self.hold[j]) > self.tol_g:
                    self._write(j, g, q, v, rows, r)
                    changed = True
                else:
                    rows.gamma[r:r + self._rows_of(j)] = self._gamma(pair, g, q, v)[:self._rows_of(j)]
        return changed

    # ------------------------------------------------------------------ switching
    def resolution(self, j: int, h: float) -> float:
        """The force (N) to which the multipliers of pair ``j`` are known after a step of ``h``:
        the force that moves the pair's effective mass by the rows' Newton tolerance ``tol_g``
        within the step, ``m tol_g / (nu h^2)`` (the displacement update, eq. 2.49).  A switching
        quantity within it of zero is round-off: a normal force that pulls less holds the pair
        (its points would part by less than ``tol_g`` over the step), a stick whose friction
        needs less beyond ``mu_s F_n`` holds, so that round-off cannot switch a pair carrying no
        load (a body resting on a line without gravity) every step."""
        return self.mass[j] * self.tol_g / (self.nu * h * h)

    def _switching(self, j: int, s: State, lam: np.ndarray, F_tol: float) -> tuple[str, float]:
        """The switch pair ``j`` is heading for and its switching quantity (positive while the
        mode holds): release ``F_n`` (4.1), stick ``sigma v_t`` (4.8), slip ``mu_s F_n - |F_t|``
        (4.6); the forces within ``F_tol`` (:meth:`resolution`)."""
        r = self._first_row(j)
        F_n = lam[r] if lam.size else 0.0
        what = "release"
        if F_n >= -F_tol and self.state[j] == SLIDE and self.sigma[j] and self._frictional[j]:
            what = "stick"
        elif F_n >= -F_tol and self.state[j] == STICK and lam.size:
            what = "slip"
        return what, self._switching_value(j, what, s, lam, F_tol)

    def event_time(self, old: State, new: State, lam_old: np.ndarray, lam_new: np.ndarray) -> float | None:
        """The predictor (open pairs), or the instant a closed pair's switching quantity
        crosses zero (linear interpolation; a slip's end: :meth:`_slip_end`), clamped inside the
        step; once per switch (a slip's end until it lands within ``eps``)."""
        best = self.passed_contact(old, new, [j for j, _p in self.open_pairs()])
        h = new.t - old.t
        pending = None
        for j in range(len(self.pairs)):
            if not self.state[j] or lam_old.size == 0:
                continue
            F_tol = self.resolution(j, h)
            what, phi_new = self._switching(j, new, lam_new, F_tol)
            if phi_new >= 0.0:
                continue
            phi_old = self._switching_value(j, what, old, lam_old, F_tol)
            if what == "stick":
                t_sw = self._slip_end(j, old, new, phi_old, phi_new)
                if j in self._held:
                    best = new.t if best is None else best  # the whole step again
                if t_sw is None or j in self._held:
                    continue
            elif phi_old > 0.0 and not self._landed(new.t, j):
                t_sw = old.t + h * phi_old / (phi_old - phi_new)
            else:
                continue
            if t_sw >= new.t - 0.02 * h:
                continue  # close enough: the switch takes effect at the end of this step
            t_sw = max(t_sw, old.t + 0.02 * h)
            if best is None or t_sw < best:
                best, pending = t_sw, (t_sw, j, what)
        if pending is not None:
            self._pending = pending
        return best

    def _slip_end(self, j: int, old: State, new: State, phi_old: float, phi_new: float) -> float | None:
        """The time within ``old -> new`` at which the slip of pair ``j``, ``phi = sigma v_t``,
        first returns to zero (4.8; :func:`slip_end`, or :func:`overrun_secant` once a step taken again
        overran it too), or None when the step landed there: the slip reversed by no more than
        the rows' velocity resolution ``tol_g / h`` (friction pushes a reversed slip along, so the
        landing is held to the rows' resolution rather than to ``eps`` of the slip, 4.9).  A slip
        from rest (within ``tol_g / h``) that went against ``sigma`` from the start, or turned back
        within 2 % of the step, is held for the step taken again (:meth:`begin_step`)."""
        h = new.t - old.t
        a_old, a_new = (self.sigma[j] * self._a_t(j, st) * h for st in (old, new))
        fraction = slip_end(max(phi_old, 0.0), a_old, phi_new, a_new)
        if phi_old <= self.tol_g / h and (a_old <= 0.0 or fraction <= 0.02):  # from rest, and back at once
            self._held[j] = old.t
            return None
        overshot = -phi_new > self.tol_g / h
        if self._landed(new.t, j) and not overshot:
            return None
        last, self._overshoots[j] = self._overshoots.get(j), (old.t, new.t, phi_new)
        t_sw = overrun_secant(last, old.t, new.t, phi_new, old.t + h * fraction)
        return min(t_sw, new.t - 0.05 * h) if t_sw >= new.t - 0.02 * h else t_sw

    def _switching_value(self, j: int, what: str, s: State, lam: np.ndarray, F_tol: float) -> float:
        r = self._first_row(j)
        if what == "stick":
            return self.sigma[j] * self._v_t(j, s)
        if what == "slip":
            return self.pairs[j].mu_s * lam[r] + F_tol - abs(lam[r + 1])
        return lam[r] + F_tol if lam.size else 0.0

    def _landed(self, t: float, j: int) -> str | None:
        """The switch of pair ``j`` the step was taken again to end at ``t``, if any."""
        p = self._pending
        if p is not None and p[1] == j and abs(t - p[0]) <= 1e-9 * self.rate_window + 4 * np.spacing(abs(t)):
            return p[2]
        return None

    def switch(self, old: State | None, new: State, lam_c: np.ndarray) -> bool:
        """Release, stick and slip at the end of the step (§4.3, §4.8).  The pairs are taken from
        the last: a switch changes the number of rows of its pair, and so the first row in
        ``lam_c`` of every pair after it, not of those before."""
        changed = False
        self._released, self._touched = set(), set()
        h = new.t - old.t if old is not None else self.rate_window
        for j in reversed(range(len(self.pairs))):
            if not self.state[j] or lam_c.size == 0:
                continue
            landed = self._landed(new.t, j)
            F_tol = self.resolution(j, h)
            what, phi = self._switching(j, new, lam_c, F_tol)
            r = self._first_row(j)
            if landed == "release" or lam_c[r] < -F_tol:
                self._open(j, new.t, lam_c[r], "tensile normal force")
            elif not self._geometry(j, new.q).reachable:
                self._open(j, new.t, lam_c[r], "passed the end of the target")
            elif what == "stick" and (phi < 0.0 or self._vanished(j, old, new)):  # landed short: slides on
                changed |= self._stop_slip(j, old, new, landed == "stick")
                continue
            elif what == "slip" and (landed == "slip" or phi < 0.0):
                self._slip(j, new.t, lam_c[r], lam_c[r + 1])
            else:
                continue
            changed = True
        self._pending = None
        return changed

    def _vanished(self, j: int, old: State | None, new: State) -> bool:
        """Eq. (4.9): the slip velocity fell to ``eps`` of its value a step before."""
        if old is None:
            return False
        return abs(self._v_t(j, new)) <= self.eps[j] * abs(self._v_t(j, old))

    def _stop_slip(self, j: int, old: State | None, s: State, landed: bool) -> bool:
        """Slide -> stick, or with no static friction a change of the slip direction.  A slip
        that began from rest the other way than assumed keeps sliding, now opposed by friction
        (not one that turned back within the step, ``landed`` where it did: it sticks)."""
        pair = self.pairs[j]
        v_t = self._v_t(j, s)
        started = not landed and old is not None and self.sigma[j] * self._v_t(j, old) <= 0.0
        if started and self.sigma[j] * v_t < 0.0:
            self.sigma[j] = np.sign(v_t)
            return True
        if pair.mu_s > 0.0 and not sticks_redundantly(self.asm, s, self._geometry(j, s.q)):
            self.state[j] = STICK
            self.log(s.t, "stick", j, v_t_m_s=v_t)
            if old is not None and self.sigma[j] * v_t < -self.tol_g / (s.t - old.t):
                self._left[j] = self.events[-1]  # the retakes ran out past the slip's end (stop_slips)
            return True
        if np.sign(v_t) not in (0.0, self.sigma[j]):
            self.sigma[j] = np.sign(v_t)
            return True
        return False

    def begin_step(self, s: State, h: float) -> None:
        """A slip whose points went against its direction over the step from ``s`` from the start
        (:meth:`event_time`: friction pushed them along their motion) is, for the step taken
        again from ``s``, turned if they already slid the other way at ``s`` (:meth:`_reversed`),
        else, begun from rest, held by friction: the pair sticks (without static friction,
        slides the other way), and the step's end judges the stick (4.6) as any other."""
        for j, t in list(self._held.items()):
            del self._held[j]
            if t != s.t or self.state[j] != SLIDE or self._reversed(j, s, h):
                continue  # the step was not taken again, or turned
            if self.pairs[j].mu_s > 0.0 and not sticks_redundantly(self.asm, s, self._geometry(j, s.q)):
                self.state[j], self.sigma[j] = STICK, 0.0
                self.log(t, "stick", j, v_t_m_s=self._v_t(j, s))
            else:
                self.sigma[j] = -self.sigma[j]

    def _slip(self, j: int, t: float, F_n: float, F_t: float) -> None:
        """Stick -> slide, in the direction the held force resisted (eq. 3.62)."""
        self.state[j] = SLIDE
        self.sigma[j] = -np.sign(F_t)
        self.log(t, "slip", j, F_n_N=float(F_n), F_t_N=float(F_t), direction=int(self.sigma[j]))

    def _open(self, j: int, t: float, F_n: float, cause: str) -> None:
        """Release (§4.1): the normal force would pull, or the point left the target's end
        (a ground segment's, or a link's outer ends)."""
        self._released.add(j)
        self._onset_steps = ()
        self.state[j] = OPEN
        self.sigma[j] = 0.0
        self.log(t, "separation", j, cause=cause, F_n_N=float(F_n))

    def check(self, s: State, lam_c: np.ndarray) -> bool:
        """A slip an impulse reversed turns (:meth:`_reversed`, also at onset); a stick that the
        consistent multipliers say needs more than ``mu_s F_n`` slides at
        once.  Not at onset: a pair just touched keeps its mode for its first step (§4.3),
        its consistent forces being zero to round-off; nor does a tensile ``F_n`` release
        here: the step decides."""
        for j in range(len(self.pairs)):
            r = self._first_row(j)
            if self.state[j] == SLIDE and self._reversed(j, s, self.last_step):
                return True
            if j in self._touched:
                continue
            if self.state[j] == STICK and abs(lam_c[r + 1]) > self._friction_limit(j, lam_c[r]):
                self._slip(j, s.t, lam_c[r], lam_c[r + 1])
                return True  # the others are judged again with the multipliers of the new rows
        return False

    def _friction_limit(self, j: int, F_n: float) -> float:
        """The largest friction force (N) a stick of pair ``j`` holds: ``mu_s F_n`` (4.6), within the
        resolution of the last step."""
        return self.pairs[j].mu_s * F_n + self.resolution(j, self.last_step)

    def _reversed(self, j: int, s: State, h: float) -> bool:
        """A slip an impulse turned (at another pair, or at a pair touching at the same instant: its points now
        slide against ``sigma`` faster than the rows resolve over a step of ``h``, ``tol_g / h``) slides on opposed
        by friction (4.5): the direction turns at once, else the next step's friction would create energy."""
        v_t = self._v_t(j, s)
        if self.sigma[j] * v_t >= -self.tol_g / h:
            return False
        self.sigma[j] = np.sign(v_t)
        self.log(s.t, "slip", j, v_t_m_s=v_t, direction=int(self.sigma[j]), cause="turned by an impulse")
        return True

    # ------------------------------------------------------------------ onset
    def step_size(self, h: float) -> float:
        """The step of :data:`ONSET_STEPS` while they last (at most the run's ``solver.step``), whatever
        ``h`` (the step the run grows back by from the step cut to land on the contact), else ``h``."""
        return self._onset_steps[0][0] if self._onset_steps else h

    @property
    def onset_left(self) -> int:
        """How many steps of :data:`ONSET_STEPS` remain."""
        return len(self._onset_steps)

    def step_tau(self) -> float | None:
        """The ``tau`` of :data:`ONSET_STEPS`'s next step, None when it is the run's."""
        return self._onset_steps[0][1] if self._onset_steps else None

    def jumps(self, s: State, held: Held) -> tuple[State, list[ImpactResult]]:
        """The onset jump (§4.7) at every open pair within TOL whose points approach (after the
        slips left at a stick are stopped, :meth:`stop_slips`)."""
        s = self.stop_slips(s, held.rows)
        results = []
        for j, pair in self.open_pairs():
            if j in self._released:
                continue  # released at this instant: its points do not press together
            g = self.pair_geometry(j, s.q)
            if not g.reachable or g.gap > self.tol or float(g.velocity(s.v)[0]) >= 0.0:
                continue
            s, v_new, res = held_jump(self.asm, s, g, pair, 0.0, "energetic", held, True)
            if res is None:  # the pairs it held settled, and its points no longer approach
                continue
            s = State(s.t, s.q, v_new, s.a, s.lam, s.a_pseudo, s.lam_c)
            self.hold[j], self.segment[j] = g.gap, g.segment  # the rows are written for the segment struck
            self.mass[j] = 1.0 / res.a
            self._touched.add(j)
            scale = max(abs(res.v_n0), abs(res.v_t0))
            if pair.mu_s > 0.0 and abs(res.v_t) <= 1e-9 * scale and not sticks_redundantly(self.asm, s, g):
                self.state[j], self.sigma[j] = STICK, 0.0
            else:
                self.state[j], self.sigma[j] = SLIDE, float(np.sign(res.v_t)) if pair.mu_d > 0 else 0.0
            self.log(s.t, "contact_start", j, gap_m=g.gap, mode=("open", "slide", "stick")[self.state[j]])
            self.record_impulse(s.t, j, res)
            self.events[-1]["onset"] = True
            results.append(res)
            if math.isfinite(self._onset_unit[j]):
                self._onset_steps = tuple((min(f * self._onset_unit[j], self._run_step), tau) for f, tau in ONSET_STEPS)
        return s, results

    def release_pulled(self, s: State, lam: np.ndarray) -> bool:
        """Whether an impulse at ``s`` with the impulses ``lam`` (N s) of the model's rows pulls a closed pair: its
        normal row's impulse tensile beyond the resolution over the last step (4.1); each such pair is released."""
        h = self.last_step
        pulled = [(j, lam[self._first_row(j)]) for j in np.flatnonzero(self.state != OPEN)]  # before a row moves
        pulled = [(j, lam_n) for j, lam_n in pulled if lam_n < -self.resolution(j, h) * h]
        for j, lam_n in pulled:  # its force: the impulse over the last step, N
            self._open(j, s.t, lam_n / h, "pulled by an impulse")
        return bool(pulled)

    def stick_turned(self, s: State, v: np.ndarray) -> bool:
        """Whether an impulse from ``s`` to the velocities ``v`` (m/s) turns the slip of a pair sliding under its
        multiplier beyond the rows' resolution ``tol_g / h`` (:meth:`_reversed`); each such pair that can stick
        does, its slip left to :meth:`stop_slips` (:func:`.jump.held_jump`: the impulse is taken again)."""
        for j in np.flatnonzero(self.state == SLIDE):
            g = self._geometry(j, s.q)
            if (self.sigma[j] * float(g.velocity(v)[1]) < -self.tol_g / self.last_step and self.pairs[j].mu_s > 0.0
                    and not sticks_redundantly(self.asm, s, g)):
                self.state[j], self.sigma[j] = STICK, 0.0
                self.log(s.t, "stick", j, v_t_m_s=self._v_t(j, s), cause="its slip turned by an impulse")
                self._left[j] = self.events[-1]
        return bool(self._left)

    def stop_slips(self, s: State, held: Callable[[State], ContactRows | None]) -> State:
        """The slips that sticks began with reversed beyond the rows' resolution ``tol_g / h`` (the
        retakes toward the slip's end ran out first) stopped by a tangential velocity jump, the
        other rows held (:func:`.slip_stop.stop_slip`); its work is friction's (:meth:`take_friction`,
        and the stick event's ``W_t_J``)."""
        rows = held(s) if self._left else None
        for j, event in self._left.items():
            v, work = stop_slip(self.asm, s, rows, self._start + self._first_row(j) + 1, self._v_t(j, s))
            s = State(s.t, s.q, v, s.a, s.lam, s.a_pseudo, s.lam_c)
            self._stopped -= work
            event["W_t_J"] = work
        self._left = {}
        return s

    def take_friction(self) -> float:
        """Friction dissipated by the jumps that stopped slips left at a stick, J."""
        taken, self._stopped = self._stopped, 0.0
        return taken

    # ------------------------------------------------------------------ outputs (the others: .lagrange_outputs)
    def step_ended(self, lam_old: np.ndarray, lam_new: np.ndarray, count: int = 1) -> None:
        """The force each closed pair transmitted over the step: its impulse over the step,
        ``h ((1 - tau) lambda_N + tau lambda_N+1)`` (the Newmark velocity update, eq. 2.50),
        over ``h``.  Departure from the thesis, which reports ``lambda_N+1``: with the
        trapezoidal rule the step-end multipliers carry an alternation ``(-1)^N`` that the
        motion does not see (any start value ``lambda_0`` gives the same positions and
        velocities), and it is largest where the force changes within a step.  After ``count`` steps
        in the same modes (a compiled run's) the onset steps among the others passed."""
        self._onset_steps = self._onset_steps[count - 1:]
        tau = self.step_tau() or self.tau
        self._onset_steps = self._onset_steps[1:]
        self._step_F[:] = np.nan
        self._step_mode[:] = self.state
        if lam_old.size == 0 or lam_old.shape != lam_new.shape:
            return
        lam = (1.0 - tau) * lam_old + tau * lam_new
        for j in range(len(self.pairs)):
            if self.state[j]:
                self._step_F[j] = self._forces(j, lam)
