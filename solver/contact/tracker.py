"""Contact predictor, impulses and separation in the time loop (thesis §3.1-3.2).

* **Predictor** (§3.1.1): after a step, a pair whose gap fell below ``-TOL_imp`` has
  been passed: the time of contact is estimated from the quadratic expansion of the
  gap (eq. 3.4) and the step is taken again, shorter, until the gap at its end is
  within ``TOL_imp`` (3.3).  This holds during a contact period too: points that
  bounced apart and meet again within an impact step get their next impulse (3.7) at
  the instant they touch, not after they have passed through each other (without
  it the bar struck by a mass ends its contact 8.6 % early and the struck bar of
  §5.1.2 leaves 3 % slow; ``docs/validation.md``).
* **Impulses** (§3.2, §3.1.2): a pair within ``TOL_imp`` whose points approach each other
  (``v_n < 0``, condition 3.7) receives an impulse, solved by Routh's method with the
  joints held (:mod:`solver.contact.impulse`); while in contact the impact step (3.5)
  is used and further impulses follow whenever the points approach again.
* **Separation**: a closed pair whose gap opens beyond ``TOL_imp`` separates, and the
  original step is restored.

The contact force is reported as the impulse transferred over the last impact step
divided by that step (the thesis evaluates it from impulses over impact steps).
"""
from __future__ import annotations

import math

import numpy as np

from ..system.assembly import Assembly
from ..system.state import State
from ..results.frames import CONTACT_STATES
from .impulse import apply_impulse
from ..system.contact_pairs import ContactPair
from .routh import ImpactResult

STICK_KINDS = ("SCS", "SRS", "stick")


class ContactTracker:
    """The contact pairs of a run and their state between steps."""

    def __init__(self, asm: Assembly, settings: dict, pairs: list[ContactPair] | None = None,
                 events: list[dict] | None = None):
        self.asm = asm
        self.pairs: list[ContactPair] = asm.sys.contacts if pairs is None else pairs
        self.tol = settings["contact_tol"]
        self.impact_step = settings["impact_step"] or impact_time_step(asm)
        count = len(self.pairs)
        self.closed = np.zeros(count, dtype=bool)
        self.state = np.zeros(count, dtype=int)  # index into CONTACT_STATES
        self._acc = np.zeros((count, 2))  # impulses since the last frame
        self._recent: list[tuple[float, int, float, float]] = []  # (time, pair, I_n, I_t)
        self.window = self.impact_step if math.isfinite(self.impact_step) else settings["step"]
        self.events: list[dict] = [] if events is None else events

    @property
    def active(self) -> bool:
        return bool(self.pairs)

    def step_size(self, h: float) -> float:
        """The impact step while any pair is closed (eq. 3.5), else ``h``."""
        return min(h, self.impact_step) if self.pairs and self.closed.any() else h

    # ------------------------------------------------------------------ predictor
    def passed_contact(self, old: State, new: State) -> float | None:
        """If a pair penetrated beyond TOL during ``old -> new``, the estimated time of
        contact (eq. 3.4, clamped inside the step); else None."""
        h = new.t - old.t
        best = None
        for k, pair in enumerate(self.pairs):
            g = pair.geometry(new.q)
            if not g.reachable or g.gap >= -self.tol:
                continue
            if pair.geometry(old.q).gap < -self.tol:
                continue  # was already inside (a start inside the target): not a crossing
            s, sd, sdd = g.gap, float(g.J[0] @ new.v), float(g.J[0] @ new.a)
            tau = _back_time(s, sd, sdd, h)
            t_ct = min(max(new.t - tau, old.t + 0.02 * h), new.t - 0.02 * h)
            best = t_ct if best is None else min(best, t_ct)
        return best

    # ------------------------------------------------------------------ impulses
    def resolve(self, s: State) -> tuple[State, list[ImpactResult]]:
        """Apply an impulse at every pair that is within TOL and approaching (3.3, 3.7)."""
        results = []
        for k, pair in enumerate(self.pairs):
            g = pair.geometry(s.q)
            if not g.reachable or g.gap > self.tol:
                continue
            if not self.closed[k]:
                self.closed[k] = True
                self.state[k] = CONTACT_STATES.index("slide")
                self.events.append({"time_s": s.t, "kind": "contact_start", "contact": pair.id, "gap_m": g.gap})
            v_n = float(g.J[0] @ s.v)
            if v_n >= 0.0:
                continue
            v_new, res = apply_impulse(self.asm, s, pair, g)
            s = State(s.t, s.q, v_new, s.a, s.lam, s.a_pseudo)
            self._acc[k] += (res.I_n, res.I_t)
            self._recent.append((s.t, k, res.I_n, res.I_t))
            self.state[k] = CONTACT_STATES.index("stick" if res.kind in STICK_KINDS else "slide")
            self.events.append(_impulse_event(s.t, pair, res))
            results.append(res)
        return s, results

    def separations(self, s: State) -> None:
        """Open every closed pair whose gap grew beyond TOL."""
        for k, pair in enumerate(self.pairs):
            if self.closed[k]:
                g = pair.geometry(s.q)
                if not g.reachable or g.gap > self.tol:
                    self.closed[k] = False
                    self.state[k] = 0
                    self.events.append({"time_s": s.t, "kind": "separation", "contact": pair.id})

    # ------------------------------------------------------------------ output
    def frame_data(self, s: State) -> dict[str, np.ndarray]:
        """Per pair: gap, contact velocities, forces (impulses of the last impact step over
        that step), state, and the impulses since the last frame."""
        count = len(self.pairs)
        out = {key: np.zeros(count) for key in ("gap_m", "v_n_m_s", "v_t_m_s", "F_n_N", "F_t_N", "I_n_N_s", "I_t_N_s")}
        self._recent = [r for r in self._recent if r[0] > s.t - self.window * (1 - 1e-9)]
        for t_i, k, I_n, I_t in self._recent:
            out["F_n_N"][k] += I_n / self.window
            out["F_t_N"][k] += I_t / self.window
        for k, pair in enumerate(self.pairs):
            g = pair.geometry(s.q)
            out["gap_m"][k] = g.gap if g.reachable else math.nan
            out["v_n_m_s"][k], out["v_t_m_s"][k] = g.J @ s.v
            out["I_n_N_s"][k], out["I_t_N_s"][k] = self._acc[k]
        out["state"] = self.state.copy()
        self._acc[:] = 0.0
        return out


def impact_time_step(asm: Assembly, k: float = 0.8) -> float:
    """Eq. (3.5): ``k l / c`` with ``l`` the shortest flexible element and ``c = sqrt(EA / rhoA)``
    (eq. 3.6); infinite when there is no flexible element."""
    b = asm.sys.beams
    if not b.count:
        return math.inf
    return float(k * np.min(b.L / np.sqrt(b.EA / b.rhoA)))


def _back_time(s: float, sd: float, sdd: float, h: float) -> float:
    """``tau`` in (0, h] with ``s - tau sd + tau^2 sdd / 2 = 0`` (eq. 3.4), the gap traced back."""
    roots = []
    if abs(sdd) > 1e-300:
        disc = sd * sd - 2.0 * sdd * s
        if disc >= 0.0:
            r = math.sqrt(disc)
            roots = [(sd - r) / sdd, (sd + r) / sdd]
    elif sd != 0.0:
        roots = [s / sd]
    roots = [r for r in roots if 0.0 < r <= h]
    return min(roots) if roots else 0.5 * h


def _impulse_event(t: float, pair: ContactPair, r: ImpactResult) -> dict:
    """The event-log entry of one impulse (with what redraws its Routh diagram)."""
    return {
        "time_s": t, "kind": "impulse", "contact": pair.id, "type": r.kind,
        "I_n_N_s": r.I_n, "I_t_N_s": r.I_t,
        "v_n_pre_m_s": r.v_n0, "v_t_pre_m_s": r.v_t0, "v_n_post_m_s": r.v_n, "v_t_post_m_s": r.v_t,
        "e_achieved": r.e_achieved, "W_n_J": r.W_n, "W_t_J": r.W_t, "dT_J": r.dT,
        "dissipated_J": -r.dT, "a": r.a, "b": r.b, "c": r.c, "mu_s": r.mu_s, "mu_d": r.mu_d, "e": r.e,
        "law": r.law, "I_nh_N_s": r.I_nh, "I_nc_N_s": r.I_nc, "I_ne_N_s": r.I_ne,
    }
