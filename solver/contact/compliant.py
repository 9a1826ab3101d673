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
the start of the step in which contact begins (at least :data:`MIN_IMPACT_VELOCITY`),
kept for the whole contact.  Kelvin-Voigt (eq. 1) loads until the first step that ends
with δ̇ ≤ 0, and unloads from then on: δ̇ vanishes at the switch, so the lag costs O(h²).

**Step control** (seed §5).  A step that starts with a pair open and ends with it
penetrated deeper than ``contact_tol`` -- or dips deeper on the way, seen by the cubic
Hermite interpolation of the gap through both ends' gap and rate -- is rejected and
retried up to the moment the gap first reaches ``-contact_tol / 2``: no contact start
is stepped over, and each begins with a penetration within the tolerance.  While a pair
is closed the local error of the Newmark penetration, (h²/12) |J_n (a₁ - a₀)|, is kept
below ``contact_accuracy`` times the contact's largest penetration: a step over 1.5
times that is rejected, and the next step is sized to it (h (tol/err)^⅓, within a
factor 0.2 ... 2); in free flight the loop grows the step back to ``solver.step``.

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
from .compliant_laws import WIDTH_FRACTION, NormalState, PairLaw, bind_pair

#: least impact velocity δ̇⁽⁻⁾ of the hysteresis laws (m/s): a pair that creeps into contact
MIN_IMPACT_VELOCITY = 1e-4
#: Newmark's local error of the penetration, (ν - 1/6) h² |Δa| with the trapezoidal rule's ν = 1/4
ERROR_CONSTANT = 1.0 / 12.0
#: a step whose error exceeds this multiple of the tolerance is taken again
REJECT_RATIO = 1.5
#: points of the cubic Hermite gap searched for a contact start inside a step
HERMITE_SAMPLES = 33


class PairForces:
    """Kinematics and forces of one pair at one state."""

    __slots__ = ("geometry", "v_n", "v_t", "normal", "F_t", "dF_t")

    def __init__(self, geometry: ContactGeometry, v_n: float, v_t: float, normal: NormalState | None,
                 F_t: float, dF_t: float):
        self.geometry, self.v_n, self.v_t, self.normal, self.F_t, self.dF_t = geometry, v_n, v_t, normal, F_t, dF_t

    @property
    def delta(self) -> float:
        """Penetration (m; negative open, -inf beside a segment)."""
        return -self.geometry.gap if self.geometry.reachable else -math.inf

    @property
    def F_n(self) -> float:
        return self.normal.force if self.normal is not None else 0.0


class CompliantContacts:
    """The compliant pairs of a run: their forces in Newton, history, step control, outputs."""

    def __init__(self, asm: Assembly, settings: dict, pairs: list[ContactPair], events: list[dict]):
        self.asm = asm
        self.pairs = pairs
        materials = {m["id"]: m for m in asm.sys.doc["materials"]}
        self.laws: list[PairLaw] = [bind_pair(p, materials) for p in pairs]
        self.tol = settings["contact_tol"]
        self.accuracy = settings["contact_accuracy"]
        self.events = events
        count = len(pairs)
        self.closed = np.zeros(count, dtype=bool)
        self.delta_dot_0 = np.zeros(count)
        self.unloading = np.zeros(count, dtype=bool)
        self.impacts = np.zeros(count, dtype=int)
        self.peak = np.zeros(count)  # largest penetration of the current contact, m
        self.peak_force = np.zeros(count)  # largest normal force of the current contact, N
        self.live = np.zeros(count, dtype=bool)  # evaluated in the current step
        self.trial_rate = np.full(count, MIN_IMPACT_VELOCITY)  # δ̇⁽⁻⁾ if contact begins in this step
        self.h_error = math.inf
        self.report = {key: np.zeros(count, dtype=int) for key in
                       ("impacts_beyond_speed_bound", "steps_beyond_penetration_limit", "steps_beyond_contact_width")}
        self.largest = {"penetration_m": np.zeros(count), "force_N": np.zeros(count)}
        sizes = np.array([len(p.dofs) ** 2 for p in pairs], dtype=int)
        self.offsets = np.concatenate([[0], np.cumsum(sizes)])
        self._impulse = np.zeros((count, 2))  # ∫ (F_n, F_t) dt since the last frame
        self._last: list[PairForces] | None = None  # forces at the last accepted state

    # ------------------------------------------------------------------ forces
    def pair_forces(self, k: int, q: np.ndarray, v: np.ndarray) -> PairForces:
        """Geometry, velocities and forces of pair ``k`` at ``(q, v)``."""
        pair, law = self.pairs[k], self.laws[k]
        g = pair.geometry(q)
        v_n, v_t = g.velocity(v)
        if not g.reachable or g.gap >= 0.0:
            return PairForces(g, float(v_n), float(v_t), None, 0.0, 0.0)
        rate = self.delta_dot_0[k] if self.closed[k] else self.trial_rate[k]
        normal = law.normal_state(-g.gap, -float(v_n), rate, bool(self.unloading[k]))
        F_t, dF_t = law.friction_force(float(v_t), normal.force)
        return PairForces(g, float(v_n), float(v_t), normal, F_t, dF_t)

    def evaluate(self, q: np.ndarray, v: np.ndarray, c_v: float) -> tuple[np.ndarray, np.ndarray]:
        """Generalised contact forces (n,) of the pairs live in this step, and the values of
        their Newton blocks ``-(dQ/dq + c_v dQ/dv)`` on the pattern of
        :class:`~solver.system.assembly.Assembly` (row-major on each pair's dofs)."""
        F = np.zeros(self.asm.n)
        vals = np.zeros(self.offsets[-1])
        for k in np.flatnonzero(self.live):
            pf = self.pair_forces(k, q, v)
            if pf.normal is None:
                continue
            g, nf = pf.geometry, pf.normal
            J_n, J_t = g.J_local[0], g.J_local[1]
            F[g.dofs] += J_n * nf.force + J_t * pf.F_t
            mu = pf.F_t / nf.force if nf.force > 0.0 else 0.0
            block = np.outer(J_n + mu * J_t, J_n) * (nf.dF_ddelta + c_v * nf.dF_ddelta_dot)
            block -= c_v * pf.dF_t * np.outer(J_t, J_t)
            vals[self.offsets[k]:self.offsets[k + 1]] = block.ravel()
        return F, vals

    def generalized_forces(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Contact forces (n,) of every pair in contact at ``(q, v)`` (for consistent accelerations)."""
        F = np.zeros(self.asm.n)
        for k in range(len(self.pairs)):
            pf = self.pair_forces(k, q, v)
            F[pf.geometry.dofs] += pf.geometry.J_local.T @ np.array([pf.F_n, pf.F_t])
        return F

    # ------------------------------------------------------------------ steps
    def begin_step(self, s: State, h: float) -> None:
        """Choose the pairs evaluated in a step of size ``h`` from ``s``: those closed, and those
        whose gap the step's motion could close (with a margin of two); note the impact
        velocity each open pair would strike with."""
        for k, pair in enumerate(self.pairs):
            if self.closed[k]:
                self.live[k] = True
                continue
            g = pair.geometry(s.q)
            v_n = float(g.velocity(s.v)[0])
            a_n = float(g.velocity(s.a)[0])
            reach = 2.0 * (abs(v_n) * h + 0.5 * abs(a_n) * h * h) + self.tol
            self.live[k] = g.reachable and g.gap < reach
            self.trial_rate[k] = max(-v_n, MIN_IMPACT_VELOCITY)

    @property
    def any_live(self) -> bool:
        return bool(self.live.any())

    def step_size(self, h: float) -> float:
        """The step the penetration error allows while a pair is closed, else ``h``."""
        return min(h, self.h_error) if self.closed.any() else h

    def retry_time(self, old: State, new: State) -> float | None:
        """The time to end the step at instead when it stepped over a contact start or its
        penetration error is too large; None accepts it (and sizes the next step)."""
        h = new.t - old.t
        start = None
        for k, pair in enumerate(self.pairs):
            if self.closed[k]:
                continue
            t_k = self._first_contact(pair, old, new)
            if t_k is not None:
                start = t_k if start is None else min(start, t_k)
        if start is not None:
            return start
        ratio = 0.0
        for k, pair in enumerate(self.pairs):
            g = pair.geometry(new.q)
            depth = -g.gap if g.reachable else -math.inf
            if not (self.closed[k] or depth > 0.0):
                continue
            err = ERROR_CONSTANT * h * h * abs(float(g.velocity(new.a - old.a)[0]))
            ratio = max(ratio, err / (self.accuracy * max(self.peak[k], depth, self.tol)))
        if ratio == 0.0:
            self.h_error = math.inf
            return None
        h_next = h * min(2.0, max(0.2, 0.9 * ratio ** (-1.0 / 3.0)))
        if ratio > REJECT_RATIO:
            return old.t + h_next
        self.h_error = h_next
        return None

    def _first_contact(self, pair: ContactPair, old: State, new: State) -> float | None:
        """When an open pair's gap, interpolated by the cubic Hermite polynomial of both ends'
        gap and rate, falls below -tol within the step: the time it first reaches -tol/2."""
        g1 = pair.geometry(new.q)
        if not g1.reachable:
            return None
        g0 = pair.geometry(old.q)
        h = new.t - old.t
        s = np.linspace(0.0, 1.0, HERMITE_SAMPLES)
        s2, s3 = s * s, s * s * s
        gap = ((2 * s3 - 3 * s2 + 1) * g0.gap + (s3 - 2 * s2 + s) * h * float(g0.velocity(old.v)[0])
               + (-2 * s3 + 3 * s2) * g1.gap + (s3 - s2) * h * float(g1.velocity(new.v)[0]))
        if gap.min() >= -self.tol:
            return None
        i = int(np.argmax(gap < -0.5 * self.tol))  # first sample beyond the target depth
        lo, hi = s[i - 1], s[i]
        for _ in range(30):  # bisection between the samples for the crossing of -tol/2
            mid = 0.5 * (lo + hi)
            m2, m3 = mid * mid, mid * mid * mid
            value = ((2 * m3 - 3 * m2 + 1) * g0.gap + (m3 - 2 * m2 + mid) * h * float(g0.velocity(old.v)[0])
                     + (-2 * m3 + 3 * m2) * g1.gap + (m3 - m2) * h * float(g1.velocity(new.v)[0]))
            lo, hi = (mid, hi) if value > -0.5 * self.tol else (lo, mid)
        return old.t + min(max(hi, 0.02), 0.98) * h

    # ------------------------------------------------------------------ accepted steps
    def accept(self, old: State, new: State, ledger: dict) -> None:
        """Book an accepted step: contact starts and separations (events), Kelvin-Voigt's
        switch, validity counts, dissipation in ``ledger`` and the impulses of the forces."""
        h = new.t - old.t
        before = self._last if self._last is not None else self._forces(old)
        after = []
        for k, pair in enumerate(self.pairs):
            pf = self.pair_forces(k, new.q, new.v)
            depth = pf.delta
            if depth > 0.0 and not self.closed[k]:
                self._contact_start(k, new, pf)  # its forces were those of δ̇⁽⁻⁾ = trial_rate already
            elif depth <= 0.0 and self.closed[k]:
                self._separation(k, new)
            if self.closed[k] and self._in_contact(k, pf, ledger):
                pf = self.pair_forces(k, new.q, new.v)  # Kelvin-Voigt unloads from here
            after.append(pf)
        for key, p0, p1 in (("dissipated_contact", self._damping_power(before), self._damping_power(after)),
                            ("dissipated_friction", self._friction_power(before), self._friction_power(after))):
            ledger[key] += 0.5 * h * (p0 + p1)
        for k, (b, a) in enumerate(zip(before, after)):
            self._impulse[k] += 0.5 * h * np.array([b.F_n + a.F_n, b.F_t + a.F_t])
        self._last = after
        if not self.closed.any():
            self.h_error = math.inf

    def _forces(self, s: State) -> list[PairForces]:
        return [self.pair_forces(k, s.q, s.v) for k in range(len(self.pairs))]

    def _contact_start(self, k: int, s: State, pf: PairForces) -> None:
        self.closed[k] = True
        self.unloading[k] = False
        self.delta_dot_0[k] = self.trial_rate[k]
        self.impacts[k] += 1
        self.peak[k] = self.peak_force[k] = 0.0
        event = {"time_s": s.t, "kind": "contact_start", "contact": self.pairs[k].id, "gap_m": pf.geometry.gap,
                 "impact_velocity_m_s": float(self.delta_dot_0[k]), "impact": int(self.impacts[k])}
        bound = self.laws[k].speed_limit
        if math.isfinite(bound):
            event["speed_bound_m_s"] = bound
            if self.delta_dot_0[k] > bound:
                self.report["impacts_beyond_speed_bound"][k] += 1
        self.events.append(event)

    def _separation(self, k: int, s: State) -> None:
        self.closed[k] = False
        self.unloading[k] = False
        self.events.append({"time_s": s.t, "kind": "separation", "contact": self.pairs[k].id,
                            "max_penetration_m": float(self.peak[k]), "max_force_N": float(self.peak_force[k])})

    def _in_contact(self, k: int, pf: PairForces, ledger: dict) -> bool:
        """Peaks, validity and Kelvin-Voigt's switch of a closed pair at an accepted state;
        True when the switch happened here."""
        law, depth = self.laws[k], pf.delta
        self.peak[k] = max(self.peak[k], depth)
        self.peak_force[k] = max(self.peak_force[k], pf.F_n)
        self.largest["penetration_m"][k] = max(self.largest["penetration_m"][k], depth)
        self.largest["force_N"][k] = max(self.largest["force_N"][k], pf.F_n)
        if pf.normal is not None and not pf.normal.valid:
            self.report["steps_beyond_penetration_limit"][k] += 1
        if law.half_width_ratio(pf.F_n) > WIDTH_FRACTION:
            self.report["steps_beyond_contact_width"][k] += 1
        if law.normal == "kelvin_voigt" and not self.unloading[k] and pf.v_n >= 0.0:
            ledger["dissipated_contact"] += law.elastic_energy(depth, False) - law.elastic_energy(depth, True)
            self.unloading[k] = True
            return True
        return False

    @staticmethod
    def _damping_power(forces: list[PairForces]) -> float:
        """(F_n - F_el) δ̇ summed over the pairs, W (≥ 0 for every law)."""
        return sum((pf.normal.force - pf.normal.elastic) * -pf.v_n for pf in forces if pf.normal is not None)

    @staticmethod
    def _friction_power(forces: list[PairForces]) -> float:
        """-F_t v_t summed over the pairs, W (≥ 0)."""
        return sum(-pf.F_t * pf.v_t for pf in forces)

    # ------------------------------------------------------------------ output
    def elastic_energy(self, s: State) -> float:
        """Energy stored in the contacts' elastic laws at ``s`` (J)."""
        total = 0.0
        for k, pair in enumerate(self.pairs):
            g = pair.geometry(s.q)
            if g.reachable and g.gap < 0.0:
                total += self.laws[k].elastic_energy(-g.gap, bool(self.unloading[k]))
        return total

    def frame_data(self, s: State) -> dict[str, np.ndarray]:
        """Per pair: gap, velocities, forces, state, impulses of the forces since the last frame,
        penetration, eccentricity (circle targets: distance of the centres) and impacts so far."""
        count = len(self.pairs)
        keys = ("gap_m", "v_n_m_s", "v_t_m_s", "F_n_N", "F_t_N", "I_n_N_s", "I_t_N_s", "penetration_m",
                "eccentricity_m")
        out = {key: np.zeros(count) for key in keys}
        state = np.zeros(count, dtype=int)
        for k, pair in enumerate(self.pairs):
            pf = self.pair_forces(k, s.q, s.v)
            g = pf.geometry
            out["gap_m"][k] = g.gap if g.reachable else math.nan
            out["v_n_m_s"][k], out["v_t_m_s"][k] = pf.v_n, pf.v_t
            out["F_n_N"][k], out["F_t_N"][k] = pf.F_n, pf.F_t
            out["penetration_m"][k] = max(pf.delta, 0.0)
            out["eccentricity_m"][k] = _eccentricity(pair, g)
            if self.closed[k]:
                slow = abs(pf.v_t) < self.pairs[k].model["friction_velocity"]
                state[k] = CONTACT_STATES.index("stick" if slow and self.laws[k].friction else "slide")
        out["I_n_N_s"], out["I_t_N_s"] = self._impulse[:, 0].copy(), self._impulse[:, 1].copy()
        self._impulse[:] = 0.0
        out["state"] = state
        out["impacts"] = self.impacts.astype(float)
        return out

    def summary(self) -> dict[str, dict]:
        """Per pair: impacts, largest penetration and force, and the law's validity counts."""
        return {pair.id: {"impacts": int(self.impacts[k]),
                          "max_penetration_m": float(self.largest["penetration_m"][k]),
                          "max_force_N": float(self.largest["force_N"][k]),
                          **{key: int(v[k]) for key, v in self.report.items()}}
                for k, pair in enumerate(self.pairs)}


def _eccentricity(pair: ContactPair, g: ContactGeometry) -> float:
    """Distance between the centres of a point and a circle target (m); nan for other targets."""
    if pair.kind != "circle":
        return math.nan
    if pair.params["inside"]:
        return pair.params["radius"] - pair.radius - g.gap
    return pair.params["radius"] + pair.radius + g.gap
