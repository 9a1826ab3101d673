"""Compliant (continuous) contact in the time loop: Flores, Ambrósio, Claro & Lankarani
2006 (``001_…txt``), §§2-5.

**Forces.**  A pair in contact pushes with its normal law F_n(δ, δ̇) and rubs with its
friction law F_t(v_t, F_n) (:mod:`.compliant_laws`), applied at the contact point as the
generalised force ``J^T (F_n, F_t)``.  The Newton iteration of a step evaluates them at
every iterate together with their tangent on the pair's dofs (geometric terms of the
turning normal left out),

    -(dQ/dq + c_v dQ/dv) = (J_n + μ' J_t)^T (F_δ + c_v F_δ̇) J_n - c_v (∂F_t/∂v_t) J_t^T J_t,

with δ = -gap, δ̇ = -v_n, μ' = F_t/F_n (the laws are linear in F_n) and c_v the
Newmark velocity factor.  Pairs far from touching in a step are left out of it.

**History.**  The hysteresis laws read the impact velocity δ̇⁽⁻⁾: the approach speed at
the instant of touching, from the cubic Hermite gap of the step in which contact begins
(at least :data:`MIN_IMPACT_VELOCITY`), kept for the whole contact; within that step
(whose penetration is at most ``contact_tol``) the approach speed at its start stands in.
Kelvin-Voigt (eq. 1) loads until maximum compression and unloads from then on: a step
that passes the maximum (the least Hermite gap) before its last 1 % is taken again to end
there, and at the switch the accelerations are restarted with the unloading force.

**Step control** (seed §5).  A step that starts with a pair open and ends with it
penetrated deeper than ``contact_tol`` -- or dips deeper on the way, seen by the cubic
Hermite interpolation of the gap through both ends' gap and rate -- is rejected and
retried up to the moment the gap first reaches ``-contact_tol / 2``: no contact start
is stepped over, and each begins with a penetration within the tolerance.  While a pair
is closed the local error of the Newmark penetration, (h²/12) |J_n (a₁ - a₀)|, is kept
below ε = ``contact_accuracy`` times the contact's largest penetration, and the change of
the penetration in a step below 0.7 ε^⅓ times the contact's predicted peak penetration, or
the penetration where deeper (an increment criterion, :mod:`.contact_scale`: the trapezoidal
work of the force errs by F'' Δδ³/12 a step, and its errors in loading and unloading cancel).
A step over 1.5 times either tolerance is rejected, and the next step is sized to them
(h (tol/err)^⅓, and the step that extrapolates to 0.9 of the increment, within 0.2 ... 2 h:
:mod:`.step_criteria`); the loop grows the step back to ``solver.step`` in free flight.

**Energy.**  The elastic part of the normal law stores V(δ) (``contact_elastic``, a
state energy); its hysteresis, damper and Kelvin-Voigt's switch dissipate
``(F_n - F_el) δ̇`` (``dissipated_contact``) and friction ``-F_t v_t``
(``dissipated_friction``), both integrated by the trapezoidal rule over each step, so
that ``T + U + V + V_contact - W + D`` stays constant.
"""
from __future__ import annotations

import math

import numpy as np

from ..results.frames import CONTACT_STATES
from ..system.assembly import Assembly
from ..system.contact_pairs import ContactGeometry, ContactPair
from ..system.state import State
from .base import ContactModel
from .circle_pairs import (circle_energy_terms, circle_forces, circle_pair_state, compiled_circle, pack_circle_batch,
                           pack_circle_pair)
from .compliant_laws import WIDTH_FRACTION, NormalState, PairLaw, bind_pair
from .contact_scale import INCREMENT_SHARE, contact_scale
from .force_peak import step_force_peak
from .hermite_gap import closing_reach, first_crossing, gap_ends, hermite_min, hermite_root, hermite_slope
from .state_terms import state_terms as compiled_state_terms
from .step_criteria import ORDER, next_step, pair_criteria
from .lubricated import FilmPair, film_of
from .pair_forces import PairForces, damping_sum, eccentricity, friction_sum, touching_depth
from .wear import wear_of

#: least impact velocity δ̇⁽⁻⁾ of the hysteresis laws (m/s): a pair that creeps into contact
MIN_IMPACT_VELOCITY = 1e-4
#: a gap within this fraction of the model's size of zero is a touch, neither open nor
#: penetrated: a step that ends where the pair just meets (a gap of ±1e-14 m, round-off of where
#: the model is drawn) starts the contact alike however the model is turned or moved
TOUCH_FRACTION = 1e-10


class CompliantModel(ContactModel):
    """The compliant pairs of a run (``model.kind = "compliant"``): their forces in Newton,
    history, step control and outputs."""

    kind = "compliant"
    impact_steps = False  # the penetration error sizes the steps in contact instead
    #: further contact columns of the frames this model fills
    frame_keys = ("penetration_m", "eccentricity_m", "impacts")
    fills_kinematics = True  # from the forces at the frame's state (compiled for the circle pairs)

    def __init__(self, asm: Assembly, pairs: list[tuple[int, ContactPair]], settings: dict, events: list[dict],
                 impact_step: float):
        super().__init__(asm, pairs, settings, events, impact_step)
        materials = {m["id"]: m for m in asm.sys.doc["materials"]}
        self.laws: list[PairLaw] = [bind_pair(p, materials) for p in self.pairs]
        #: the oil films of lubricated clearance joints, by pair (:mod:`.lubricated`)
        self.films = {k: FilmPair(p, film) for k, p in enumerate(self.pairs)
                      if (film := film_of(p.model, p.radius, p.params.get("radius", 0.0) - p.radius))}
        #: the bearings' wear of clearance joints with ``wear``, by pair (:mod:`.wear`)
        self.wear = {k: w for k, p in enumerate(self.pairs) if (w := wear_of(p))}
        self.accuracy = settings["contact_accuracy"]
        self.touch = TOUCH_FRACTION * asm.sys.size
        #: the compiled evaluation's arguments of each circle pair without film or wear (None: the
        #: general path, in Python; :mod:`.circle_pairs`) and the slots its Jacobian touches
        self._circles = [pack_circle_pair(p, law, self.touch) if compiled_circle(p, k in self.films) else None
                         for k, (p, law) in enumerate(zip(self.pairs, self.laws))]
        self._touched = [c and p.geometry(np.zeros(asm.n)).touched for p, c in zip(self.pairs, self._circles)]
        #: largest relative change of the penetration in a step (the penetration-increment criterion)
        self.increment = INCREMENT_SHARE * self.accuracy ** (1.0 / 3.0)
        count = len(self.pairs)
        self.delta_dot_0 = np.zeros(count)
        self.unloading = np.zeros(count, dtype=bool)
        self.impacts = np.zeros(count, dtype=int)
        self.peak = np.zeros(count)  # largest penetration of the current contact, m
        self.scale = np.zeros(count)  # the current contact's predicted peak penetration, m (0 open)
        self.peak_force = np.zeros(count)  # largest normal force of the current contact, N
        self.live = np.zeros(count, dtype=bool)  # evaluated in the current step
        self.trial_rate = np.full(count, MIN_IMPACT_VELOCITY)  # δ̇⁽⁻⁾ if contact begins in this step
        self.h_error = math.inf
        self.report = {key: np.zeros(count, dtype=int) for key in
                       ("impacts_beyond_speed_bound", "steps_beyond_penetration_limit", "steps_beyond_contact_width")}
        self.largest = {"penetration_m": np.zeros(count), "force_N": np.zeros(count)}
        sizes = np.array([len(p.dofs) ** 2 for p in self.pairs], dtype=int)
        self.offsets = np.concatenate([[0], np.cumsum(sizes)])
        #: every pair served compiled: their forces and blocks in one compiled call
        self._batch = pack_circle_batch(self._circles, self.offsets) if all(self._circles) else None
        self._dissipated = 0.0  # energy lost at Kelvin-Voigt's switches since it was last taken, J
        self.touched_at = np.zeros(count)  # when the current contact began (interpolated), s
        self._last: list[PairForces] | None = None  # forces at the last accepted state
        self._cached: tuple | None = None  # (q, v, forces) of the last state the powers were asked at
        self._terms: tuple | None = None  # (q, v, energy terms) of the last state they were asked at

    @property
    def touching(self) -> np.ndarray:
        """Which pairs are closed (penetration > 0 at the last accepted state)."""
        return self.state > 0

    # ------------------------------------------------------------------ forces
    def pair_forces(self, k: int, q: np.ndarray, v: np.ndarray) -> PairForces:
        """Geometry, velocities and forces of pair ``k`` at ``(q, v)``."""
        if self._circles[k] is not None:
            return self._circle_forces(k, q, v)
        pair, law = self.pairs[k], self.laws[k]
        g = pair.geometry(q)
        v_n, v_t = g.velocity(v)
        depth = touching_depth(g, self.touch)
        if depth <= 0.0:
            return PairForces(g, float(v_n), float(v_t), None, 0.0, 0.0, self.touch)
        rate = self.delta_dot_0[k] if self.state[k] else self.trial_rate[k]
        normal = law.normal_state(depth, -float(v_n), rate, bool(self.unloading[k]))
        F_t, dF_t = law.friction_force(float(v_t), normal.force)
        return PairForces(g, float(v_n), float(v_t), normal, F_t, dF_t, self.touch)

    def _circle_forces(self, k: int, q: np.ndarray, v: np.ndarray, rate: float | None = None) -> PairForces:
        """:meth:`pair_forces` of a compiled circle pair (:func:`.circle_pairs.circle_pair_state`), with the
        impact velocity ``rate`` (m/s) if given."""
        pair = self.pairs[k]
        if rate is None:
            rate = self.delta_dot_0[k] if self.state[k] else self.trial_rate[k]
        gap, nx, ny, J, v_n, v_t, depth, normal, F_t, dF_t = circle_pair_state(q, v, *self._circles[k], rate,
                                                                               bool(self.unloading[k]))
        g = ContactGeometry(gap, np.array([nx, ny]), np.array([ny, -nx]), pair.dofs, J, pair.n_dofs, True,
                            self._touched[k])
        return PairForces(g, v_n, v_t, NormalState(*normal) if depth > 0.0 else None, F_t, dF_t, self.touch)

    def evaluate(self, q: np.ndarray, v: np.ndarray, c_v: float) -> tuple[np.ndarray, np.ndarray]:
        """Generalised contact forces (n,) of the pairs live in this step, and the values of
        their Newton blocks ``-(dQ/dq + c_v dQ/dv)`` on the pattern of
        :class:`~solver.system.assembly.Assembly` (row-major on each pair's dofs)."""
        F = np.zeros(self.asm.n)
        vals = np.zeros(self.asm.extra_size)
        if self._batch is not None:
            circle_forces(q, v, c_v, *self._batch_args(), F, vals)
            return F, vals
        for k in np.flatnonzero(self.live):
            if k in self.films:
                dofs = self.pairs[k].dofs
                Q, block = self.films[k].newton_block(q[dofs], v[dofs], c_v)
                F[dofs] += Q
                vals[self.offsets[k]:self.offsets[k + 1]] += block.ravel()
            pf = self.pair_forces(k, q, v)
            if pf.normal is None:
                continue
            g, nf = pf.geometry, pf.normal
            J_n, J_t = g.J_local[0], g.J_local[1]
            F[g.local_dofs] += J_n * nf.force + J_t * pf.F_t
            mu = pf.F_t / nf.force if nf.force > 0.0 else 0.0
            block = np.outer(J_n + mu * J_t, J_n) * (nf.dF_ddelta + c_v * nf.dF_ddelta_dot)
            block -= c_v * pf.dF_t * np.outer(J_t, J_t)
            vals[self.offsets[k]:self.offsets[k + 1]] += block.ravel()
        return F, vals

    def kernel_args(self) -> tuple | None:
        """The arguments of :func:`.circle_pairs.circle_forces` after ``(q, v, c_v)`` and before its
        outputs, for a step (the live pairs, their impact velocities and phases as the step began);
        None unless every pair is served compiled."""
        return None if self._batch is None else self._batch_args()

    def _batch_args(self) -> tuple:
        return (*self._batch, self.live, np.where(self.state != 0, self.delta_dot_0, self.trial_rate), self.unloading)

    def generalized_forces(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Contact forces (n,) of every pair in contact at ``(q, v)`` (for consistent accelerations)."""
        F = np.zeros(self.asm.n)
        for k in range(len(self.pairs)):
            pf = self.pair_forces(k, q, v)
            F[pf.geometry.local_dofs] += pf.geometry.J_local.T @ np.array([pf.F_n, pf.F_t])
        for k, film in self.films.items():
            dofs = self.pairs[k].dofs
            F[dofs] += film.generalized(q[dofs], v[dofs])
        return F

    # ------------------------------------------------------------------ steps
    def begin_step(self, s: State, h: float) -> None:
        """Choose the pairs evaluated in a step of size ``h`` from ``s``: those closed, and those
        whose gap the step's motion could close (with a margin of two); note the impact
        velocity each open pair would strike with."""
        for k in range(len(self.pairs)):
            if self.state[k]:
                self.live[k] = True
                continue
            pf = self.pair_forces(k, s.q, s.v)  # open: its geometry (compiled for a circle), the law unread
            g, v_n = pf.geometry, pf.v_n
            a_n = float(g.velocity(s.a)[0])
            reach = closing_reach(v_n, a_n, h, self.tol)
            self.live[k] = (g.reachable and g.gap < reach) or k in self.films
            self.trial_rate[k] = max(-v_n, MIN_IMPACT_VELOCITY)

    def moved(self) -> None:
        """The state moved on, every pair open, in steps not taken one by one: its forces made anew."""
        self._last = None

    def seen_at_start(self, s: State, started: list[int]) -> None:
        """The forces at ``s``, the end of a step (taken in a compiled run) at which the pairs ``started``
        began their contacts, as that step saw them -- theirs with the step's trial impact velocity --
        kept as :meth:`switch` keeps them for the next step and the frame."""
        forces = [self._circle_forces(k, s.q, s.v, self.trial_rate[k] if k in started else None)
                  for k in range(len(self.pairs))]
        self._last, self._cached = forces, (s.q, s.v, forces)

    @property
    def any_live(self) -> bool:
        return bool(self.live.any())

    def step_size(self, h: float) -> float:
        """The step the penetration error allows while a pair is closed, else ``h``."""
        return min(h, self.h_error) if self.closed() else h

    def event_time(self, old: State, new: State, lam_old: np.ndarray, lam_new: np.ndarray) -> float | None:
        """The time to end the step at instead when it stepped over a contact start or its
        penetration error is too large; None accepts it (and sizes the next step)."""
        h = new.t - old.t
        before, after = self._last or self._forces_at(old), self._forces_at(new)
        ends = [gap_ends(b, a, h) for b, a in zip(before, after)]
        starts = [self._first_contact(e) for k, e in enumerate(ends) if not self.state[k]]
        starts += [self._maximum_compression(e) for k, e in enumerate(ends) if self._loading_kelvin_voigt(k)]
        starts = [old.t + s * h for s in starts if s is not None]
        if starts:
            return min(starts)
        error, increment, h_increment = 0.0, 0.0, math.inf  # the criteria over their tolerances (:mod:`.step_criteria`)
        for k, (b, a) in enumerate(zip(before, after)):
            depth = a.delta
            if not (self.state[k] or depth > 0.0):
                continue
            e, i, h_i = pair_criteria(h, float(a.geometry.velocity(new.a - old.a)[0]), depth, b.delta, self.peak[k],
                                      bool(self.state[k]), self.accuracy, self.increment, self.tol, self.scale[k],
                                      -a.v_n, -float(a.geometry.velocity(new.a)[0]))
            error, increment, h_increment = max(error, e), max(increment, i), min(h_increment, h_i)
        if error == 0.0 and increment == 0.0:
            self.h_error = math.inf
            return None
        h_next, reject = next_step(h, error, increment, h_increment, ORDER)
        if reject:
            return old.t + h_next
        self.h_error = h_next
        return None

    def _first_contact(self, ends: tuple[float, float, float, float]) -> float | None:
        """When an open pair's gap, interpolated by the cubic Hermite polynomial of both ends'
        gap and rate (:func:`.hermite_gap.gap_ends`), falls below -tol within the step: the fraction of the
        step where it first reaches -tol/2 (within 0.02 ... 0.98; :func:`.hermite_gap.first_crossing`)."""
        s = first_crossing(*ends, self.tol)
        return None if s < 0.0 else s

    def _loading_kelvin_voigt(self, k: int) -> bool:
        return bool(self.state[k]) and self.laws[k].normal == "kelvin_voigt" and not self.unloading[k]

    @staticmethod
    def _maximum_compression(ends: tuple[float, float, float, float]) -> float | None:
        """Where a loading Kelvin-Voigt pair passed its maximum compression (the least Hermite
        gap) inside the step, unless within its last 1 %: its force switches there (eq. 1)."""
        if not all(math.isfinite(x) for x in ends) or ends[3] < 0.0:
            return None  # still approaching at the end of the step
        lowest, _value = hermite_min(*ends)
        return max(lowest, 0.02) if lowest < 0.99 else None

    # ------------------------------------------------------------------ accepted steps
    def switch(self, old: State | None, new: State, lam_c: np.ndarray) -> bool:
        """Book an accepted step: contact starts and separations (events), Kelvin-Voigt's
        switch, peaks and validity counts, and the impulses of the forces over the step.
        True when a Kelvin-Voigt pair switched to unloading: its force jumps, and the
        accelerations must be made consistent with it (the trapezoidal rule would otherwise
        average the two phases over the next step, an O(h) error of the rebound)."""
        before = None if old is None else self._last or [self.pair_forces(k, old.q, old.v)
                                                          for k in range(len(self.pairs))]
        after = self._forces_at(new)  # as the ledger saw them; a Kelvin-Voigt switch replaces its pair's
        jumped = False
        for k in range(len(self.pairs)):
            pf = after[k]
            depth, was_closed = pf.delta, bool(self.state[k])
            ends = None if before is None else gap_ends(before[k], pf, new.t - old.t)
            if depth > 0.0 and not was_closed:
                self._contact_start(k, new, pf, old, ends)
            elif depth <= 0.0 and was_closed:
                self._separation(k, new, old, ends)
            if (was_closed or self.state[k]) and ends is not None:
                self._interpolated_peak(k, ends, (before[k], pf, new.t - old.t))
            if self.state[k] and self._in_contact(k, pf):
                after[k] = self.pair_forces(k, new.q, new.v)  # Kelvin-Voigt unloads from here
                jumped = True
        if before is not None:
            h = new.t - old.t
            for k, (b, a) in enumerate(zip(before, after)):
                self._acc[k] += 0.5 * h * (self._carried(k, b, old) + self._carried(k, a, new))
            for k, wear in self.wear.items():
                wear.book(before[k], after[k], new.q, h)
        self._last = after
        if jumped and self._batch is not None:  # the state's terms from its forces as now replaced
            self._terms = (new.q, new.v, (friction_sum(after), damping_sum(after), self._elastic_sum(after)))
        if not self.closed():
            self.h_error = math.inf
        return jumped

    def _contact_start(self, k: int, s: State, pf: PairForces, old: State | None, ends) -> None:
        self.state[k] = CONTACT_STATES.index("slide")
        self.unloading[k] = False
        self.delta_dot_0[k] = self.trial_rate[k]
        self.impacts[k] += 1
        self.peak[k] = self.peak_force[k] = 0.0
        exact = ends is not None and all(math.isfinite(x) for x in ends)
        self.touched_at[k] = s.t
        if exact:  # the instant of touching and the approach speed then, from the Hermite gap
            root = hermite_root(*ends)
            self.touched_at[k] = old.t + root * (s.t - old.t)
            self.delta_dot_0[k] = max(-hermite_slope(root, *ends) / (s.t - old.t), MIN_IMPACT_VELOCITY)
        self.scale[k] = contact_scale(self.asm, self.laws[k], s, pf.geometry, self.delta_dot_0[k], self.tol)
        self.log_start(k, s.t, pf.geometry.gap, self.delta_dot_0[k], self.impacts[k], self.touched_at[k])

    def log_start(self, k: int, t: float, gap: float, speed: float, impact: int, touched: float) -> None:
        """The event of pair ``k``'s contact start at the end of a step at ``t`` (s): its gap (m), the
        impact velocity (m/s), its count and the instant of touching (s); counted beyond the law's speed bound."""
        data = {"gap_m": gap, "impact_velocity_m_s": float(speed), "impact": int(impact),
                "contact_time_s": float(touched)}
        bound = self.laws[k].speed_limit
        if math.isfinite(bound):
            data["speed_bound_m_s"] = bound
            if speed > bound:
                self.report["impacts_beyond_speed_bound"][k] += 1
        self.log(t, "contact_start", k, **data)

    def _separation(self, k: int, s: State, old: State | None, ends) -> None:
        self.state[k] = self.scale[k] = 0
        self.unloading[k] = False
        self._interpolated_peak(k, ends)
        exact = ends is not None and all(math.isfinite(x) for x in ends)
        parted = old.t + hermite_root(*ends) * (s.t - old.t) if exact else s.t
        self.log_separation(k, s.t, self.peak[k], self.peak_force[k], parted, parted - self.touched_at[k])

    def log_separation(self, k: int, t: float, peak: float, force: float, parted: float, duration: float) -> None:
        """The event of pair ``k``'s separation at the end of a step at ``t`` (s): the contact's largest
        penetration (m) and force (N), the instant of parting and the contact's duration (s)."""
        self.log(t, "separation", k, max_penetration_m=float(peak), max_force_N=float(force),
                 separation_time_s=float(parted), duration_s=float(duration))

    def _interpolated_peak(self, k: int, ends, step: tuple | None = None) -> None:
        """The largest penetration of a contact between the ends of a step, from the cubic Hermite gap (the
        samples miss it by O(h²)); the force of the law there at δ̇ = 0 (an elastic law's peak), or a hysteresis
        law's larger one inside the step of ``step`` = (forces before, after, h) (:mod:`.force_peak`)."""
        if ends is None or not all(math.isfinite(x) for x in ends):
            return
        (_s, gap), law, rate, unloading = hermite_min(*ends), self.laws[k], self.delta_dot_0[k], bool(self.unloading[k])
        force = step_force_peak(law, ends, *step, rate, unloading) if step else 0.0
        if -gap > self.peak[k]:
            self.peak[k] = -gap
            self.largest["penetration_m"][k] = max(self.largest["penetration_m"][k], -gap)
            force = max(force, law.normal_state(-gap, 0.0, rate, unloading).force)
        self.peak_force[k] = max(self.peak_force[k], force)
        self.largest["force_N"][k] = max(self.largest["force_N"][k], force)

    def _in_contact(self, k: int, pf: PairForces) -> bool:
        """Peaks, validity, the state (stick below the friction velocity) and Kelvin-Voigt's
        switch of a closed pair at an accepted state; True when the switch happened here."""
        law, depth = self.laws[k], pf.delta
        self.peak[k] = max(self.peak[k], depth)
        self.peak_force[k] = max(self.peak_force[k], pf.F_n)
        self.largest["penetration_m"][k] = max(self.largest["penetration_m"][k], depth)
        self.largest["force_N"][k] = max(self.largest["force_N"][k], pf.F_n)
        slow = law.friction is not None and abs(pf.v_t) < self.pairs[k].model["friction_velocity"]
        self.state[k] = CONTACT_STATES.index("stick" if slow else "slide")
        if pf.normal is not None and not pf.normal.valid:
            self.report["steps_beyond_penetration_limit"][k] += 1
        if law.half_width_ratio(pf.F_n) > WIDTH_FRACTION:
            self.report["steps_beyond_contact_width"][k] += 1
        if law.normal == "kelvin_voigt" and not self.unloading[k] and pf.v_n >= 0.0:
            self._dissipated += law.elastic_energy(depth, False) - law.elastic_energy(depth, True)
            self.unloading[k] = True
            return True
        return False

    def take_dissipation(self) -> float:
        """Energy lost at Kelvin-Voigt's switches since the last call (J): the stored energy
        the unloading law no longer returns, (1 - c_e) K δ²/2."""
        lost, self._dissipated = self._dissipated, 0.0
        return lost

    # ------------------------------------------------------------------ energy
    def friction_power(self, s: State, lam_c: np.ndarray) -> float:
        """-F_t v_t summed over the pairs, and the oil films' -Q v (:mod:`.lubricated`), W (≥ 0)."""
        if self._batch is not None:
            return self._energy_terms(s)[0]
        films = sum(-film.power(s.q[self.pairs[k].dofs], s.v[self.pairs[k].dofs]) for k, film in self.films.items())
        return friction_sum(self._forces_at(s)) + films

    def damping_power(self, s: State) -> float:
        """(F_n - F_el) δ̇ summed over the pairs, W (≥ 0 for every law)."""
        if self._batch is not None:
            return self._energy_terms(s)[1]
        return damping_sum(self._forces_at(s))

    def elastic_energy(self, s: State) -> float:
        """Energy stored in the contacts' elastic laws at ``s`` (J)."""
        if self._batch is not None:
            return self._energy_terms(s)[2]
        return self._elastic_sum(self._forces_at(s))

    def _elastic_sum(self, forces: list[PairForces]) -> float:
        return sum((self.laws[k].elastic_energy(pf.delta, bool(self.unloading[k]))
                    for k, pf in enumerate(forces) if pf.delta > 0.0), 0.0)  # 0.0, not 0, when open

    def _energy_terms(self, s: State) -> tuple[float, float, float]:
        """The three sums above at ``s`` when every pair is served compiled, in one compiled pass
        (:func:`.circle_pairs.circle_energy_terms`), kept for the next call with the same state."""
        if self._terms is None or self._terms[0] is not s.q or self._terms[1] is not s.v:
            self._terms = (s.q, s.v, circle_energy_terms(s.q, s.v, *self._batch[:11], *self._batch_args()[-2:]))
        return self._terms[2]

    def state_terms(self, s: State, mechanical: tuple) -> tuple[float, ...]:
        """:func:`.state_terms.state_terms` at ``s`` with the system's ``mechanical`` arguments
        (every pair served compiled); the pairs' three terms those kept for ``s`` if any."""
        *values, terms = compiled_state_terms(s.q, s.v, s.lam, *mechanical, *self._batch[:11], self.state,
                                              self.delta_dot_0, self.trial_rate, self.unloading)
        if self._terms is None or self._terms[0] is not s.q or self._terms[1] is not s.v:
            self._terms = (s.q, s.v, terms)
        return (*values, *self._terms[2])

    def _forces_at(self, s: State) -> list[PairForces]:
        """Every pair's forces at ``s`` (kept for the next call with the same state)."""
        if self._cached is None or self._cached[0] is not s.q or self._cached[1] is not s.v:
            self._cached = (s.q, s.v, [self.pair_forces(k, s.q, s.v) for k in range(len(self.pairs))])
        return self._cached[2]

    # ------------------------------------------------------------------ output
    def frame_data(self, s: State, lam_c: np.ndarray, out: dict[str, np.ndarray]) -> None:
        """Gap, contact velocities, forces, state, impulses of the forces since the last frame,
        penetration, eccentricity (circle targets: distance of the centres) and impacts so far."""
        for k, (pair, pf) in enumerate(zip(self.pairs, self._forces_at(s))):
            i = self.index[k]
            out["gap_m"][i] = pf.geometry.gap if pf.geometry.reachable else math.nan
            out["v_n_m_s"][i], out["v_t_m_s"][i] = pf.v_n, pf.v_t
            out["F_n_N"][i], out["F_t_N"][i] = self._carried(k, pf, s)
            out["penetration_m"][i] = max(pf.delta, 0.0)
            out["eccentricity_m"][i] = eccentricity(pair, s.q)
            out["impacts"][i] = self.impacts[k]
        self.frame_impulses(s, out, 0.0)

    def _carried(self, k: int, pf: PairForces, s: State) -> np.ndarray:
        """(F_n, F_t) the joint of pair ``k`` carries at ``s`` (N): its contact law's, plus, in a
        lubricated joint, its oil film's force on the journal in the pair's frame (the film
        carries the load where the dry law reads 0)."""
        carried = np.array([pf.F_n, pf.F_t])
        if k in self.films:
            dofs = self.pairs[k].dofs
            F = self.films[k].journal_force(s.q[dofs], s.v[dofs])
            carried += (F @ pf.geometry.normal, F @ pf.geometry.tangent)
        return carried

    def summary(self) -> dict[str, dict]:
        """Per pair: impacts, largest penetration and force, and the law's validity counts."""
        return {pair.id: {"impacts": int(self.impacts[k]),
                          "max_penetration_m": float(self.largest["penetration_m"][k]),
                          "max_force_N": float(self.largest["force_N"][k]),
                          **{key: int(v[k]) for key, v in self.report.items()},
                          **({"wear": self.wear[k].table()} if k in self.wear else {})}
                for k, pair in enumerate(self.pairs)}
