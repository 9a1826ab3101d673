"""Static equilibrium of a compiled system: Newton with load stepping (thesis eqs. 2.54-2.61
without the inertia terms).

Solves ``f(q) - s F(q, t) + G^T lambda = 0``, ``g(q, t) = 0`` for load factors
``s = 1/k, 2/k, ..., 1``, each step starting from the previous equilibrium, so large
rotations (a cantilever rolled into a circle by an end moment) are followed continuously;
free strains (a thermal gradient) are not stepped.  ``held`` dofs stay where they are
(points with a mass and no stiffness, such as a moving mass on its track).  The static
analysis (:mod:`solver.analysis.static`) and a run that starts from the static shape
(:mod:`.initial`, ``solver.initial_shape = "static"``) call it.
"""
from __future__ import annotations

import numpy as np

from .assembly import Assembly, newton_scale
from ..errors import SolverError


def solve_static(asm: Assembly, *, load_steps: int = 10, time: float = 0.0, tol: float = 1e-10,
                 max_iterations: int = 50, held: tuple[int, ...] = ()) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """``(q, lambda, iterations per load step)`` of the equilibrium at ``time`` (s) from the
    sketched ``q0``; raises :class:`~solver.errors.SolverError` when there is none."""
    sys = asm.sys
    cons = sys.constraints
    n = asm.n
    held = list(held)
    q = sys.q0.copy()
    lam = np.zeros(asm.m)
    zero = np.zeros(n)
    history = []
    for k in range(1, load_steps + 1):
        s = k / load_steps
        for it in range(1, max_iterations + 1):
            try:
                fr, K, diag = asm.forces(q, zero, zero, time, blocks=(0.0, 0.0, 1.0))
            except ZeroDivisionError:
                raise SolverError(f"an element collapsed to zero length at load factor {s:.3g}") from None
            F = s * fr.external
            G_vals = cons.values(q)
            reac = np.bincount(cons.cols, weights=G_vals * lam[cons.rows], minlength=n) if asm.m else 0.0
            psi = fr.internal - F + reac
            g = cons.residual(q, time)
            scale = newton_scale(K, diag)
            diag = diag.copy()
            diag[held], psi[held] = scale, 0.0  # a held dof does not move (it touches no element or joint)
            lu = asm.factorize(K, diag, G_vals, scale)
            x = lu.solve(-np.concatenate([psi, scale * g]))
            if lu.singular or not np.all(np.isfinite(x)):
                raise SolverError("the structure is not restrained against rigid motion: no static equilibrium")
            q += x[:n]
            lam += scale * x[n:]
            if np.linalg.norm(x[:n]) <= tol * max(1.0, np.abs(q).max()):
                break
        else:
            raise SolverError(f"static Newton did not converge at load factor {s:.3g}")
        history.append(it)
    return q, lam, history
