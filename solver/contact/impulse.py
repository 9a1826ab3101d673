"""The momentum-balance (impulse) contact model, thesis ch. 3 (``model.kind = "impulse"``).

* **Impulses** (§3.2, §3.1.2): a pair within ``TOL_imp`` (3.3) whose points approach each
  other (``v_n < 0``, condition 3.7) receives an impulse, solved by Routh's method with the
  joints and the Lagrange pairs held (:mod:`solver.contact.jump`); while in contact the
  impact step (3.5) is used and further impulses follow whenever the points approach again.
  The predictor (:meth:`~solver.contact.base.ContactModel.passed_contact`) finds each
  meeting, also within a contact period: without it the bar struck by a mass ends its
  contact 8.6 % early and the struck bar of §5.1.2 leaves 3 % slow (``docs/validation.md``).
* **Separation**: a closed pair whose gap opens beyond ``TOL_imp`` separates.
* **Force**: an impulse is not a force, and the impulses of one impact step alternate
  from step to step when e = 1 (the bar–mass contact "force" over one step peaks 17 % above
  wave theory, the two-bar one 78 %).  The force reported (``F_n_N``, ``F_t_N``) is the
  impulse transferred over a trailing window of fixed length divided by it: the window is
  ``solver.impulse_force_window``, by default
  :data:`~solver.system.impact_times.WINDOW_TRANSITS` wave transits of the
  shortest flexible element (eq. 3.6), which does not depend on the step, so the force
  converges as the step is refined.  The per-step rate of the old definition (the impulses
  of the last impact step over that step) is kept as ``F_n_impulse_rate_N``,
  ``F_t_impulse_rate_N``.
"""
from __future__ import annotations

import numpy as np

from ..results.frames import CONTACT_STATES
from ..system.assembly import Assembly
from ..system.contact_pairs import ContactPair
from ..system.impact_times import impulse_force_window
from ..system.state import State
from .base import ContactModel
from .jump import Held, held_jump
from .routh import ImpactResult

#: Routh solutions that end with the points sticking
STICK_KINDS = ("SCS", "SRS", "stick")

class ImpulseModel(ContactModel):
    """Momentum balance with Routh's incremental method at every approach (thesis ch. 3)."""

    kind = "impulse"

    def __init__(self, asm: Assembly, pairs: list[tuple[int, ContactPair]], settings: dict, events: list[dict],
                 impact_step: float):
        super().__init__(asm, pairs, settings, events, impact_step)
        self.window = impulse_force_window(asm.sys)
        #: whether a step of a pair in contact is cut before it is taken (:meth:`forecast`)
        self.forecasts = settings["impact_forecast"]

    def forecast(self, s: State, h: float) -> float | None:
        """With ``solver.impact_forecast``: the predictor (:meth:`passed_contact`, eq. 3.4) on the
        Taylor expansion ``q + h v + h^2 a / 2`` of a step from ``s``, for the pairs in contact.

        An e = 1 contact of two node points closes again within almost every impact step:
        taken and then cut, each such step costs two attempts, each with a new factorisation
        of the Newton matrix (its step differs from the last); forecast, one.
        """
        closed = np.flatnonzero(self.state)
        if not (self.forecasts and closed.size):
            return None
        ahead = State(s.t + h, s.q + h * s.v + (0.5 * h * h) * s.a, s.v + h * s.a, s.a, s.lam, s.a)
        return self.passed_contact(s, ahead, closed.tolist())

    def short_of_contact(self, s: State) -> bool:
        """Whether a pair in contact is apart beyond TOL at ``s`` (:meth:`switch` would separate it)."""
        for j in np.flatnonzero(self.state).tolist():
            g = self.pair_geometry(j, s.q)
            if not g.reachable or g.gap > self.tol:
                return True
        return False

    def switch(self, old: State | None, new: State, lam_c: np.ndarray) -> bool:
        """Open every closed pair whose gap grew beyond TOL (separation)."""
        for j in range(len(self.pairs)):
            if self.state[j]:
                g = self.pair_geometry(j, new.q)
                if not g.reachable or g.gap > self.tol:
                    self.state[j] = 0
                    self.log(new.t, "separation", j)
        return False

    def jumps(self, s: State, held: Held) -> tuple[State, list[ImpactResult]]:
        """An impulse at every pair that is within TOL and approaching (3.3, 3.7)."""
        results = []
        for j, pair in enumerate(self.pairs):
            g = self.pair_geometry(j, s.q)
            if not g.reachable or g.gap > self.tol:
                continue
            if not self.state[j]:
                self.state[j] = CONTACT_STATES.index("slide")
                self.log(s.t, "contact_start", j, gap_m=g.gap)
            if float(g.velocity(s.v)[0]) >= 0.0:
                continue
            s, v_new, res = held_jump(self.asm, s, g, pair, pair.e, pair.law, held)
            if res is None:  # the pairs it held settled, and its points no longer approach
                continue
            s = State(s.t, s.q, v_new, s.a, s.lam, s.a_pseudo, s.lam_c)
            sticks = pair.mu_s > 0.0 and res.kind in STICK_KINDS  # a frictionless point slides
            self.state[j] = CONTACT_STATES.index("stick" if sticks else "slide")
            self.record_impulse(s.t, j, res)
            results.append(res)
        return s, results

    def frame_data(self, s: State, lam_c: np.ndarray, out: dict[str, np.ndarray]) -> None:
        """Forces as the impulses over the force window, the impulses since the last frame,
        the per-step impulse rates and the states."""
        W = self.window
        forces: dict[int, list[float]] = {}  # summed as floats, in order, then written once a pair
        for t_i, h_i, j, I_n, I_t in self.impulses_in(s.t, W + self.rate_window):
            # the impulse spread over the step that ended with it, averaged over the window
            weight = max(0.0, min(t_i, s.t) - max(t_i - h_i, s.t - W)) / (h_i * W)  # 1/s
            force = forces.setdefault(j, [0.0, 0.0])
            force[0] += I_n * weight
            force[1] += I_t * weight
        for j, (F_n, F_t) in forces.items():
            out["F_n_N"][self.index[j]], out["F_t_N"][self.index[j]] = F_n, F_t
        self.frame_impulses(s, out, W + self.rate_window)
