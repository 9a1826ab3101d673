"""Rolling without slip of a round body on a target, by Lagrange multipliers (``model.kind = "rolling"``).

Amirouche & Xie (seed 004, eqs. 17-21) write the rolling of one body on another as
constraints at the velocity level, ``[J] y_dot = g``, solved with the equations of motion
extended by ``lambda J^T``, the contact position and ``J`` updated along the run.  Here a
rolling pair is a pair of the Lagrange-multiplier model (:mod:`.lagrange`) held in its
sticking mode for good: two rows, the normal gap held at its value (position row,
multiplier ``F_n``) and the tangential relative velocity of the two surfaces at the
contact point held at zero (velocity row, multiplier ``F_t``: the no-slip condition, with
``r omega`` of the round body in it).  The contact point is found again at every
configuration (:meth:`~solver.system.contact_pairs.ContactPair.geometry`: on a link
target, the segment of the deformed link under the body), and the rows are
re-linearised as it moves.

* There is no slip: the friction force is whatever the no-slip row needs (no ``mu``).
* Lift-off: when ``F_n`` would pull, the pair opens (the event ``separation``) and the body
  flies freely; it meets its target again through the predictor of contact, with the
  onset jump of the Lagrange model (perfectly plastic and without slip: the normal and
  tangential relative velocities vanish), and rolls on.
* A body that starts on its target (within ``contact_tol``, not separating) rolls from
  the first step.  Sketched on its target, its normal velocity is zero up to round-off
  (2e-16 m/s either way when the model is turned or mirrored): a separating speed that moves
  it less than the constraint tolerance ``1e-10 x`` the model's size in one step
  (:attr:`RollingModel.resting_speed`) is not separating.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..system.state import State
from .lagrange import OPEN, STICK, LagrangeModel

#: the friction coefficient of the onset jump: high enough that Routh's impulse ends in stick
NO_SLIP = 1e6

#: relative tangential velocity (m/s) within which the no-slip row counts as met at a converged step
SLIP_TOL = 1e-9


class RollingModel(LagrangeModel):
    """Rolling pairs: the Lagrange model's sticking rows, never sliding."""

    kind = "rolling"
    impact_steps = False  # rolling is not an impact: the run keeps its step

    def __init__(self, asm, pairs, settings, events, impact_step):
        pairs = [(k, replace(p, mu_s=NO_SLIP, mu_d=NO_SLIP)) for k, p in pairs]
        super().__init__(asm, pairs, settings, events, impact_step)
        self._c_v = settings["tau"] / settings["nu"]  # c_v h of the Newmark relations (2.62), for the scale
        self.scale = 1.0  # of the no-slip rows, set for each step
        #: a separating normal speed (m/s) at the start that moves the body less than the constraint
        #: tolerance in a step: round-off, so the body starts rolling (the tie of a disc sketched on a beam)
        self.resting_speed = self.tol_g / settings["step"]

    def begin_step(self, s: State, h: float) -> None:
        """Newton takes a row converged when its residual is within the constraint tolerance,
        a length; a velocity row's residual is ``R v / c_v``: the no-slip rows are scaled by
        ``c_v tol_g / (0.1 SLIP_TOL)`` so that their tolerance is a tenth of :data:`SLIP_TOL`."""
        self.scale = self._c_v / h * self.tol_g / (0.1 * SLIP_TOL)

    def _write(self, j, g, q, v, rows, r) -> None:
        """The Lagrange model's rows with the no-slip row scaled; its ``gamma`` comes scaled from
        :meth:`_gamma` (scaled again here, it made the accelerations at a landing 1e5 times off)."""
        super()._write(j, g, q, v, rows, r)
        rows.row[r + 1] *= self.scale

    def _gamma(self, pair, g, q, v) -> np.ndarray:
        return super()._gamma(pair, g, q, v) * (1.0, self.scale)

    def refresh(self, q: np.ndarray, v: np.ndarray, rows, start: int) -> bool:
        """The Lagrange model's refresh, and the rows of a pair re-linearised as well when the
        no-slip row, evaluated with the contact point and frame at ``q``, is not met to
        :data:`SLIP_TOL`: the contact point moves along the target within the step.  Past the target's
        end (a disc rolled off a link's end) the rows hold the body on their line until the step ends,
        which releases the pair ('passed the end of the target', as :meth:`LagrangeModel.refresh` holds it):
        rows written there had an infinite gap, and the run failed with a not-a-number force."""
        changed = super().refresh(q, v, rows, start)
        for j, pair in enumerate(self.pairs):
            if self.state[j]:
                g = pair.geometry(q, int(self.segment[j]))
                if g.reachable and abs(float(g.velocity(v)[1])) > SLIP_TOL:
                    self._write(j, g, q, v, rows, start + self._first_row(j))
                    changed = True
        return changed

    def _switching(self, j: int, s: State, lam: np.ndarray, F_tol: float) -> tuple[str, float]:
        """Only release (``F_n`` through zero, within ``F_tol``) ends a rolling contact."""
        return "release", self._switching_value(j, "release", s, lam, F_tol)

    def check(self, s: State, lam_c: np.ndarray) -> bool:
        return False  # no friction limit: a rolling pair does not slip

    def switch(self, old: State | None, new: State, lam_c: np.ndarray) -> bool:
        """At the start of the run, pairs on their targets begin to roll; later, release."""
        if old is not None:
            return super().switch(old, new, lam_c)
        started = False
        for j, pair in enumerate(self.pairs):
            g = pair.geometry(new.q)
            if g.reachable and abs(g.gap) <= self.tol and float(g.velocity(new.v)[0]) <= self.resting_speed:
                self.state[j], self.sigma[j], self.hold[j] = STICK, 0.0, g.gap
                self.log(new.t, "contact_start", j, gap_m=g.gap, mode="roll")
                started = True
        return started

    def jumps(self, s, held):
        s, results = super().jumps(s, held)
        for j in range(len(self.pairs)):
            if self.state[j] != OPEN:
                self.state[j], self.sigma[j] = STICK, 0.0
        return s, results

    def _forces(self, j: int, lam_c: np.ndarray) -> tuple[float, float]:
        """``(F_n, F_t)`` (N): the multipliers of the two rows, unbounded tangentially."""
        r = self._first_row(j)
        return max(float(lam_c[r]), 0.0), float(lam_c[r + 1])

