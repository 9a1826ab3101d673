"""Newmark time step with Newton-Raphson on the out-of-balance force (thesis §2.5).

Newmark relations (eqs. 2.49-2.50), written with the parameters (nu, tau):

    qddot_{N+1} = (q_{N+1} - q_N - h qdot_N - h^2 (1/2 - nu) qddot_N) / (nu h^2)
    qdot_{N+1}  = qdot_N + h ((1 - tau) qddot_N + tau qddot_{N+1})

Newton iterates on ``q_{N+1}`` and the constraint multipliers with the matrix of
eqs. (2.55)-(2.59) extended by the constraints (see :mod:`solver.assembly`); the
velocity and acceleration follow from eqs. (2.62)-(2.63).  A factorised matrix is
reused across iterations and steps while Newton contracts fast (modified Newton),
and refactorised as soon as it does not.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .assembly import Assembly, Factor


@dataclass
class State:
    """Positions, velocities, accelerations and multipliers at time t."""

    t: float
    q: np.ndarray
    v: np.ndarray
    a: np.ndarray
    lam: np.ndarray

    def copy(self) -> "State":
        return State(self.t, self.q.copy(), self.v.copy(), self.a.copy(), self.lam.copy())


class NewtonFailure(Exception):
    """Newton did not converge within the allowed iterations."""


class NewmarkIntegrator:
    """Advances a :class:`State` by one Newmark step."""

    #: a reused Jacobian is kept while each iteration reduces the residual by this factor
    CONTRACTION = 0.25

    def __init__(self, asm: Assembly, settings: dict):
        self.asm = asm
        self.nu = settings["nu"]
        self.tau = settings["tau"]
        self.tol_rel = settings["tol_rel"]
        self.tol_abs = settings["tol_abs"]
        self.max_iter = settings["max_iterations"]
        self.modified = settings["modified_newton"]
        self._factor: Factor | None = None
        self._factor_h = None
        self.factorizations = 0
        # constraint tolerance: a length scale of the model
        self.tol_g = 1e-10 * max(1.0, float(np.abs(asm.sys.q0).max(initial=0.0)))

    def step(self, s: State, h: float) -> tuple[State, int]:
        """One step of size ``h``; returns the new state and the Newton iteration count."""
        asm, nu, tau = self.asm, self.nu, self.tau
        cons = asm.sys.constraints
        n = asm.n
        t1 = s.t + h
        c_a = 1.0 / (nu * h * h)
        c_v = tau / (nu * h)
        # predictor: constant acceleration (consistent with 2.49-2.50 for qddot_{N+1} = qddot_N)
        a = s.a.copy()
        q = s.q + h * s.v + 0.5 * h * h * s.a
        v = s.v + h * s.a
        lam = s.lam.copy()
        if self._factor_h != h:
            self._factor = None
        prev_norm = None
        fresh = False
        for it in range(1, self.max_iter + 1):
            need_matrix = self._factor is None or not self.modified
            if need_matrix:
                fr, blocks, diag = asm.forces(q, v, a, t1, blocks=(c_a, c_v, 1.0))
            else:
                fr = asm.forces(q, v, a, t1)
            G_vals = cons.values(q)
            reac = np.bincount(cons.cols, weights=G_vals * lam[cons.rows], minlength=n) if cons.count else 0.0
            psi = fr.residual + reac
            g = cons.residual(q, t1)
            ref = max(np.linalg.norm(fr.inertial), np.linalg.norm(fr.internal), np.linalg.norm(fr.external), np.linalg.norm(reac))
            r_norm = np.linalg.norm(psi)
            g_norm = np.abs(g).max(initial=0.0)
            if it > 1 and r_norm <= self.tol_rel * ref + self.tol_abs and g_norm <= self.tol_g:
                return self._project(State(t1, q, v, a, lam), G_vals, h), it - 1
            if not need_matrix and prev_norm is not None and r_norm > self.CONTRACTION * prev_norm and not fresh:
                fr, blocks, diag = asm.forces(q, v, a, t1, blocks=(c_a, c_v, 1.0))
                need_matrix = True
            if need_matrix:
                self._scale = newton_scale(blocks, diag)
                self._factor = asm.factorize(blocks, diag, G_vals, self._scale)
                self._factor_h = h
                self.factorizations += 1
                fresh = True
            else:
                fresh = False
            sc = self._scale
            x = self._factor.solve(-np.concatenate([psi, sc * g]))
            if not np.all(np.isfinite(x)):
                self._factor = None
                raise NewtonFailure("the Newton matrix is singular (a mechanism locked or unconstrained?)")
            dq = x[:n]
            lam = lam + sc * x[n:]
            q = q + dq
            v = v + c_v * dq  # (2.62)
            a = a + c_a * dq  # (2.63)
            prev_norm = r_norm
        self._factor = None
        raise NewtonFailure(f"Newton did not converge in {self.max_iter} iterations (out-of-balance {r_norm:.3g} N)")

    def _project(self, s: State, G_vals: np.ndarray, h: float) -> State:
        """Project the accelerations onto the constraint manifold, ``G a = gamma``.

        Position constraints hold after Newton, but with the trapezoidal rule the
        acceleration error they leave is undamped and makes the multipliers (joint
        reactions, driver torques) oscillate from step to step.  One solve with the
        factorised Newton matrix ``S`` (no new factorisation) enforces the
        acceleration-level constraint in the metric of ``S`` (as in index-3 methods with
        projections, Bayo & Ledesma 1996); the multipliers take the matching
        correction ``dlambda = nu h^2 s mu`` so that ``M a + G^T lambda`` is unchanged
        to O(h^2).  Velocities are not projected: that would cost the scheme its
        second-order energy behaviour.
        """
        cons = self.asm.sys.constraints
        if not cons.count:
            return s
        n, sc = self.asm.n, self._scale
        zeros = np.zeros(n)

        def G_times(x: np.ndarray) -> np.ndarray:
            return np.bincount(cons.rows, weights=G_vals * x[cons.cols], minlength=cons.count)

        da = self._factor.solve(np.concatenate([zeros, sc * (cons.gamma(s.q, s.v, s.t) - G_times(s.a))]))
        s.a = s.a + da[:n]
        s.lam = s.lam + self.nu * h * h * sc * da[n:]
        return s


def newton_scale(blocks: np.ndarray, diag: np.ndarray) -> float:
    """Typical size of a diagonal entry: scales the constraint rows of the Newton matrix."""
    d = np.concatenate([np.abs(np.einsum("eii->ei", blocks)).ravel(), np.abs(diag)])
    d = d[d > 0]
    return float(np.exp(np.mean(np.log(d)))) if d.size else 1.0
