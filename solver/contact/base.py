"""The interface between the time loop and a contact model, and the predictor they share.

A :class:`ContactModel` owns the pairs of a run that use its kind (``model.kind`` in the
model file) and their state between steps.  :class:`~solver.contact.tracker.ContactTracker`
holds the models and speaks to the time loop for all of them; each step it asks every
model, in this order:

1. ``row_count`` / ``fill_rows(s, rows, start)``: the rows it adds to the Newton system of
   the next step (:class:`~solver.system.bordered.ContactRows`; a Lagrange multiplier per
   row).  The momentum-balance model adds none.
2. ``event_time(old, new, lam_old, lam_new)``: after a tentative step, the time at which the step
   must end instead (a contact passed, a force that would turn tensile, a slip velocity
   through zero), or None; the step is then taken again ending there (thesis eq. 3.4).
3. ``step_ended(lam_old, lam_new)``, then ``switch(old, new, lam_c)``: after the accepted
   step, its multipliers at both ends, and the changes of mode that take effect at its end (release, stick, slip) without a velocity jump; True when a mode changed.
4. ``jumps(s, held)``: the velocity jumps at its end (impulses, the onset jump of §4.7),
   with the rows ``held.rows(s)`` of all models kept (None when no model has any; an impulse
   that would pull a held pair is taken again with that pair released, and one that would turn
   a held pair's slip with that pair sticking, its slip stopped first: ``release_pulled``,
   ``stick_turned``, ``stop_slips``, :func:`.jump.held_jump`); the new state
   and the Routh solutions, whose works the tracker books in the energy ledger; then
   ``take_friction()``, the friction of a jump that is no pair's impulse (a slip left at a
   stick stopped at once, :mod:`.slip_stop`), booked too.
5. ``check(s, lam_c)``: after the accelerations and multipliers are made consistent with
   the new rows, modes the consistent multipliers contradict (a new contact that would
   pull, a stick that needs more than μs λn) switch at once; True when one did.
6. ``closed()`` (the impact step 3.5 is used while any pair is, for a model with
   ``impact_steps``), ``friction_power(s, lam_c)`` for the ledger, ``frame_data(s, lam_c,
   out)`` for the forces, states and impulses of its pairs in the output frames (and the
   further columns it names in ``frame_keys``).

A model of contact forces (the compliant laws) also takes part in the Newton iteration:
``begin_step(s, h)`` before every attempt at a step, ``step_size(h)`` (the step its error
allows), ``damping_power(s)``, ``elastic_energy(s)`` and ``take_dissipation()`` for the
ledger, ``summary()`` for the run's metadata; the defaults here do nothing.  (The
Lagrange model uses ``begin_step`` too: to hold a pair for a step taken again.)

``lam_c`` is always the slice of the state's contact multipliers that belongs to the
model's rows, in the layout of its modes at the start of the step.
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ..jit import njit
from ..system.assembly import Assembly
from ..system.bordered import ContactRows
from ..system.contact_pairs import ContactGeometry, ContactPair
from ..system.integrator import damped, integrator_parameters
from ..system.state import State
from .jump import Held
from .routh import ImpactResult

#: configurations whose geometry each pair remembers (:meth:`ContactModel.pair_geometry`): a
#: step's start and end, an attempt's end and the forecast's expansion
SEEN = 4


class ContactModel:
    """Base of the contact models: state per pair, the predictor of contact (§3.1.1)."""

    #: the ``model.kind`` of the model file this class resolves
    kind = ""
    #: whether the impact step (eq. 3.5) applies while a pair of this model is closed
    impact_steps = True
    #: contact columns of the frames beyond CONTACT_KEYS that this model fills
    frame_keys: tuple[str, ...] = ()
    #: whether :meth:`frame_data` fills its pairs' gap and contact velocities itself (the tracker
    #: computes them for the others' pairs)
    fills_kinematics = False

    def __init__(self, asm: Assembly, pairs: list[tuple[int, ContactPair]], settings: dict, events: list[dict],
                 impact_step: float):
        self.asm = asm
        #: the per-step impulse rate is taken over the last impact step (eq. 3.5)
        self.rate_window = impact_step if math.isfinite(impact_step) else settings["step"]
        self.index = [k for k, _p in pairs]  # positions in the run's list of pairs
        self.pairs = [p for _k, p in pairs]
        self.tol = settings["contact_tol"]
        self.events = events
        self.state = np.zeros(len(self.pairs), dtype=int)  # index into CONTACT_STATES
        self._acc = np.zeros((len(self.pairs), 2))  # impulses since the last frame, N s
        self._recent: list[tuple[float, float, int, float, float]] = []  # (time, step, pair, I_n, I_t)
        self.last_step = self.rate_window  # the step that ended where the current jumps happen, s
        self._seen: list[list[tuple]] = [[] for _ in self.pairs]  # per pair: (q, prefer, geometry), newest first
        self.nu, self.tau = integrator_parameters(settings)[:2]  # the run's Newmark parameters (eqs. 2.49-2.50)

    def damp(self, tau: float) -> None:
        """The run's numerical damping from the next step on (the time loop's switch after an impact,
        docs/solver.md): ``tau`` and eq. (5.1)'s ``nu``, as the integrator's (a Lagrange pair weighs
        a step's multipliers by ``tau``, eq. 2.50, and resolves its forces with ``nu``)."""
        self.nu, self.tau = damped(tau)

    # ------------------------------------------------------------------ the interface
    def closed(self) -> bool:
        """Whether any pair is in contact (the impact step applies)."""
        return bool(self.state.any())

    def row_count(self) -> int:
        return 0

    def fill_rows(self, s: State, rows: ContactRows, start: int) -> None:
        """Write the model's rows at ``start`` of ``rows`` (linearised at ``s``)."""

    def refresh(self, q: np.ndarray, v: np.ndarray, rows: ContactRows, start: int) -> bool:
        """Re-linearise curved rows at ``(q, v)``; True when they changed."""
        return False

    def event_time(self, old: State, new: State, lam_old: np.ndarray, lam_new: np.ndarray) -> float | None:
        """The time within ``old -> new`` at which the step should end instead, or None."""
        return self.passed_contact(old, new, range(len(self.pairs)))

    def forecast(self, s: State, h: float) -> float | None:
        """The time before ``s.t + h`` at which a step of ``h`` from ``s`` is expected to have to
        end, so that it is taken to there at once (None: take the step and ask :meth:`event_time`)."""
        return None

    def short_of_contact(self, s: State) -> bool:
        """Whether a step cut by :meth:`forecast` ended at ``s`` short of the contact it expected
        (a pair it looked at apart beyond TOL): the loop then takes the whole step."""
        return False

    def step_ended(self, lam_old: np.ndarray, lam_new: np.ndarray) -> None:
        """The multipliers of its rows at the start and the end of the step just accepted (in
        the layout of that step's modes), before :meth:`switch`."""

    def switch(self, old: State | None, new: State, lam_c: np.ndarray) -> bool:
        return False

    def jumps(self, s: State, held: Held) -> tuple[State, list[ImpactResult]]:
        """Velocity jumps at ``s`` with the rows ``held.rows(s)`` kept; the new state and the impulses."""
        return s, []

    def release_pulled(self, s: State, lam: np.ndarray) -> bool:
        """Whether an impulse at ``s`` with the impulses ``lam`` (N s) of this model's rows pulls a pair it holds,
        which is then released; no such pair here."""
        return False

    def stick_turned(self, s: State, v: np.ndarray) -> bool:
        """Whether an impulse from ``s`` to the velocities ``v`` (m/s) turns the slip of a pair of this model
        sliding under a row (a Lagrange pair's), which then sticks; no such pair here."""
        return False

    def stop_slips(self, s: State, held: Callable[[State], ContactRows | None]) -> State:
        """``s`` with the slips stopped of this model's pairs that began to stick with one left (none here)."""
        return s

    def check(self, s: State, lam_c: np.ndarray) -> bool:
        return False

    def friction_power(self, s: State, lam_c: np.ndarray) -> float:
        """Power dissipated by friction at ``s``, W."""
        return 0.0

    def reaction_power(self, s: State, lam_c: np.ndarray) -> float:
        """Power (W) the reactions of rows that hold a prescribed motion do on the system at ``s``
        (zero for rows fixed in time: a contact's normal reaction does no work)."""
        return 0.0

    def frame_data(self, s: State, lam_c: np.ndarray, out: dict[str, np.ndarray]) -> None:
        """Fill ``F_n_N, F_t_N, state, I_n_N_s, I_t_N_s`` and the impulse rates of its pairs."""

    # ------------------------------------------------------------------ force models
    def begin_step(self, s: State, h: float) -> None:
        """Prepare an attempt at a step of size ``h`` from ``s``."""

    def step_size(self, h: float) -> float:
        """The largest step the model allows now, at most ``h``."""
        return h

    def step_tau(self) -> float | None:
        """The Newmark ``tau`` the model asks of the next step (eq. 5.1), or None: the run's."""
        return None

    def damping_power(self, s: State) -> float:
        """Power dissipated by the damping of contact laws at ``s``, W."""
        return 0.0

    def elastic_energy(self, s: State) -> float:
        """Energy stored in the contacts at ``s``, J."""
        return 0.0

    def take_dissipation(self) -> float:
        """Energy dissipated at once by the last switches (not through a power), J."""
        return 0.0

    def take_friction(self) -> float:
        """Energy dissipated by friction at once by the last jumps that are not impulses of a pair
        (a slip stopped at a stick, :mod:`.slip_stop`), J."""
        return 0.0

    def summary(self) -> dict[str, dict]:
        """Per pair: what the run's metadata reports of it."""
        return {}

    # ------------------------------------------------------------------ predictor
    def pair_geometry(self, j: int, q: np.ndarray, prefer: int = -1) -> ContactGeometry:
        """Pair ``j`` at ``q``, a state's configuration (never changed in place), on segment
        ``prefer`` while it can be (:meth:`~solver.system.contact_pairs.ContactPair.geometry`).
        The last :data:`SEEN` are remembered: a state is looked at by the predictor of the
        step that ends there (once per attempt) and of the next, by the switches and the jumps."""
        seen = self._seen[j]
        for q_k, prefer_k, g in seen:
            if q_k is q and prefer_k == prefer:
                return g
        g = self.pairs[j].geometry(q, prefer)
        self._seen[j] = [(q, prefer, g), *seen[:SEEN - 1]]
        return g

    def note_behind(self, s: State, fresh: bool) -> None:
        """Mark, at the accepted state ``s`` (a run's start when ``fresh``), the open pairs whose
        point came round the end of their link target to behind it, and clear those in front again
        (:meth:`~solver.system.contact_pairs.ContactPair.note_behind`): the link is then out of
        the point's reach for every model, its predictor, its forces and its jumps."""
        for j, pair in enumerate(self.pairs):
            if not self.state[j] and pair.note_behind(s.q, self.tol, fresh):
                self._seen[j] = []

    def open_pairs(self):
        """``(j, pair)`` of the pairs not in contact."""
        return [(j, p) for j, p in enumerate(self.pairs) if not self.state[j]]

    def passed_contact(self, old: State, new: State, pairs) -> float | None:
        """If one of the pairs numbered ``pairs`` went too deep during ``old -> new``, the time the step should end
        instead (clamped inside the step); else None.

        A pair that started within ``TOL`` went too deep when its gap fell below ``-TOL``: the
        step should end at the estimated instant of contact, gap 0 (eq. 3.4; halved when the
        expansion has no root in the step).  One that started further in (a start inside the
        target, or a point pressed in) went too deep when it moved more than ``TOL`` further
        in: the step should end where it is ``TOL/2`` further in.  A point touching or inside
        at the start is not cut below :func:`pressed_step`.
        """
        h = new.t - old.t
        best = None
        for j in pairs:
            g = self.pair_geometry(j, new.q)
            g0 = self.pair_geometry(j, old.q)
            aim = min(g0.gap, 0.0) if g0.gap < -self.tol else 0.0
            if not g.reachable or g.gap >= min(aim, 0.0) - self.tol:
                continue
            if g0.gap <= 0.0 and h <= pressed_step(self.tol, float(g0.velocity(old.a)[0])):
                continue  # touching and pressed in: the impulse at the step's end resolves it
            s, sd, sdd = g.gap - aim, float(g.velocity(new.v)[0]), float(g.velocity(new.a)[0])
            tau = back_time(s, sd, sdd, h)
            t_ct = min(max(new.t - tau, old.t + 0.02 * h), new.t - 0.02 * h)
            best = t_ct if best is None else min(best, t_ct)
        return best

    # ------------------------------------------------------------------ impulses
    def record_impulse(self, t: float, j: int, r: ImpactResult) -> None:
        """Keep an impulse of pair ``j`` (at the end of a step of ``last_step``) for the
        frames and log it."""
        acc = self._acc[j]
        acc[0] += r.I_n
        acc[1] += r.I_t
        self._recent.append((t, self.last_step, j, r.I_n, r.I_t))
        self.log(t, "impulse", j, **impulse_event(r))

    def impulses_in(self, t: float, window: float) -> list[tuple[float, float, int, float, float]]:
        """The recorded impulses whose step reaches into ``(t - window, t]``."""
        return [r for r in self._recent if r[0] > t - window * (1 - 1e-9)]

    def frame_impulses(self, s: State, out: dict[str, np.ndarray], keep: float) -> None:
        """The impulses since the last frame, the per-step impulse rates (the impulses of
        the last impact step over that step) and the states of the pairs; impulses older
        than ``keep`` are forgotten."""
        self._recent = self.impulses_in(s.t, max(keep, self.rate_window))
        rates: dict[int, list[float]] = {}  # summed as floats, in order, then added once a pair
        for _t, _h, j, I_n, I_t in self.impulses_in(s.t, self.rate_window):
            rate = rates.setdefault(j, [0.0, 0.0])
            rate[0] += I_n / self.rate_window
            rate[1] += I_t / self.rate_window
        for j, (rate_n, rate_t) in rates.items():
            out["F_n_impulse_rate_N"][self.index[j]] += rate_n
            out["F_t_impulse_rate_N"][self.index[j]] += rate_t
        for j, k in enumerate(self.index):
            out["I_n_N_s"][k], out["I_t_N_s"][k] = self._acc[j]
            out["state"][k] = self.state[j]
        self._acc[:] = 0.0

    def log(self, t: float, kind: str, j: int, **data) -> None:
        """Append an event of pair ``j`` to the run's event log."""
        self.events.append({"time_s": float(t), "kind": kind, "contact": self.pairs[j].id, **data})


def pressed_step(tol: float, a_n: float) -> float:
    """The step in which a point touching its target (not approaching) is carried ``TOL``
    further in by its normal acceleration ``a_n`` (m/s², < 0 inward): ``sqrt(2 TOL / |a_n|)``,
    s (0 when it is not pressed in).

    Within a shorter step the penetration is the momentum-balance model's own (of order
    ``a_n h² / 2``, stopped by the impulse at the step's end, eq. 3.7): cutting the step
    further does not find an instant of contact but makes the steps shrink without bound
    while the point stays pressed in (the rod struck on the floor at twice the gravity
    stalled with steps of 10⁻¹⁰ s, its tip held at ``-TOL``).

    >>> round(pressed_step(1e-6, -9000.0), 8)
    1.491e-05
    """
    return math.sqrt(2.0 * tol / -a_n) if a_n < 0.0 else 0.0


def back_time(s: float, sd: float, sdd: float, h: float) -> float:
    """``tau`` in (0, h] with ``s - tau sd + tau^2 sdd / 2 = 0`` (eq. 3.4), the gap traced back.

    A normal acceleration of round-off size (a model drawn at an angle to the axes: the bars of
    §5.1.2 at 37°) must give the root of the linear expansion, ``s / sd``, as an exactly zero
    one does: the textbook formula would lose it to cancellation and halve the step instead.

    >>> back_time(-1.25e-5, -10.0, 0.0, 2.25e-6) == back_time(-1.25e-5, -10.0, 1e-12, 2.25e-6)
    True
    """
    roots = [r for r in quadratic_roots(0.5 * sdd, -sd, s) if 0.0 < r <= h]
    return min(roots) if roots else 0.5 * h


def quadratic_roots(a: float, b: float, c: float) -> list[float]:
    """The real roots of ``a x^2 + b x + c`` (one when ``a = 0``), computed without cancellation
    (:func:`quadratic_root_pair`), as a list.

    >>> quadratic_roots(1e-20, 2.0, -1.0)
    [-2e+20, 0.5]
    >>> quadratic_roots(1.0, 0.0, 1.0)
    []
    """
    count, first, second = quadratic_root_pair(a, b, c)
    return [first, second][:count]


@njit(cache=True)
def quadratic_root_pair(a, b, c):
    """``(count, first, second)``: the real roots of ``a x^2 + b x + c`` (one when ``a = 0``, the
    unused ones 0), computed without cancellation (Press et al., Numerical Recipes §5.6:
    ``Q = -(b + sgn(b) sqrt(b^2 - 4ac)) / 2``, roots ``Q / a`` and ``c / Q``), so that a small
    ``a`` -- of round-off size, or of no size at all -- leaves the root near ``-c / b`` exact."""
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        return 0, 0.0, 0.0
    Q = -0.5 * (b + math.copysign(math.sqrt(disc), b))
    if a != 0.0:
        return (2, Q / a, c / Q) if Q != 0.0 else (1, Q / a, 0.0)
    return (1, c / Q, 0.0) if Q != 0.0 else (0, 0.0, 0.0)


def impulse_event(r: ImpactResult) -> dict:
    """The event-log data of one impulse (with what redraws its Routh diagram)."""
    works = {"W_held_friction_J": r.W_held, "W_held_rows_J": r.W_held_rows, "W_joints_J": r.W_joints,
             "W_drivers_J": r.W_drivers}
    return {
        "type": r.kind, "I_n_N_s": r.I_n, "I_t_N_s": r.I_t,
        "v_n_pre_m_s": r.v_n0, "v_t_pre_m_s": r.v_t0, "v_n_post_m_s": r.v_n, "v_t_post_m_s": r.v_t,
        "e_achieved": r.e_achieved, "W_n_J": r.W_n, "W_t_J": r.W_t, "dT_J": r.dT,
        "dissipated_J": -r.dT, "a": r.a, "b": r.b, "c": r.c, "mu_s": r.mu_s, "mu_d": r.mu_d, "e": r.e,
        "law": r.law, "I_nh_N_s": r.I_nh, "I_nc_N_s": r.I_nc, "I_ne_N_s": r.I_ne,
    } | {key: work for key, work in works.items() if work} | ({"c_tn": r.c_tn} if r.c_tn is not None else {})
