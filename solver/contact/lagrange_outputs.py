"""The forces of the Lagrange-multiplier model's closed pairs as the frames and the ledger read them (thesis
4.2-4.5): the multipliers as normal and friction forces, the friction's power, the frames' contact columns."""
from __future__ import annotations

import numpy as np

from ..system.state import State


class LagrangeOutputs:
    """The outputs of :class:`~.lagrange.LagrangeModel`, which it is mixed into (its pairs, modes ``state``, slip
    directions ``sigma``, rows and the forces over the last step, :meth:`~.lagrange.LagrangeModel.step_ended`)."""

    def _forces(self, j: int, lam_c: np.ndarray) -> tuple[float, float]:
        """``(F_n, F_t)`` of a closed pair, N: the multipliers (4.2); none pulling (the next step releases)."""
        r = self._first_row(j)
        F_n = max(float(lam_c[r]), 0.0)
        if self._rows_of(j) == 2:  # sticking: the tangential row's force, within the cone
            mu_F = self.pairs[j].mu_s * F_n
            return F_n, min(max(float(lam_c[r + 1]), -mu_F), mu_F)
        return F_n, -self.pairs[j].mu_d * F_n * self.sigma[j]  # eq. (4.5)

    def friction_power(self, s: State, lam_c: np.ndarray) -> float:
        """``-F_t v_t`` summed over the pairs in contact, W."""
        return float(self.run_friction_powers(s.q, s.v[None], lam_c[None])[0])

    def run_friction_powers(self, q: np.ndarray, V: np.ndarray, lams: np.ndarray) -> np.ndarray:
        """:meth:`friction_power` at states in the present modes with the velocities ``V`` (K, n) and contact
        multipliers ``lams`` (K, rows), W, the pairs' Jacobians those at ``q``: a run's on straight targets (a
        node's, a ground line's: the same bits at every configuration); each state's sum in pair order."""
        P = np.zeros(len(V))
        for j in range(len(self.pairs)):
            if self.state[j] and self._frictional[j] and lams.shape[1]:
                g = self._geometry(j, q)
                for k in range(len(V)):
                    P[k] -= self._forces(j, lams[k])[1] * float(g.velocity(V[k])[1])
        return P

    def frame_data(self, s: State, lam_c: np.ndarray, out: dict[str, np.ndarray]) -> None:
        """The multipliers as forces (4.2-4.3) over the last step (:meth:`step_ended`; where the
        mode changed at its end, at an onset or after a release, the multipliers now), states,
        onset impulses and their rates."""
        for j, k in enumerate(self.index):
            if self.state[j] == self._step_mode[j] and not np.isnan(self._step_F[j, 0]):
                out["F_n_N"][k], out["F_t_N"][k] = self._step_F[j]
            elif self.state[j] and lam_c.size:
                out["F_n_N"][k], out["F_t_N"][k] = self._forces(j, lam_c)
        self.frame_impulses(s, out, self.rate_window)
