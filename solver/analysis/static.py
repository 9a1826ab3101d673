"""Static equilibrium under the model's loads: Newton with load stepping.

Solves ``f(q) - s F(q, t) + G^T lambda = 0``, ``g(q, t) = 0`` for load factors
``s = 1/k, 2/k, ..., 1`` (eqs. 2.54-2.61 without the inertia terms), each step
starting from the previous equilibrium, so large rotations (a cantilever rolled
into a circle by an end moment) are followed continuously.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..system.assembly import Assembly, newton_scale
from ..system.compile import compile_model
from ..errors import SolverError


@dataclass
class Equilibrium:
    """A static configuration: dofs, multipliers and Newton iterations per load step."""

    asm: Assembly
    q: np.ndarray
    lam: np.ndarray
    iterations: list[int]

    def node_xy(self, node: str) -> np.ndarray:
        s = self.asm.sys
        return self.q[s.node_dofs[s.node_ids.index(node)]]

    def rotation(self, node: str, link: str) -> float:
        s = self.asm.sys
        return float(self.q[s.rot_dofs[s.rot_slots.index((node, link))]])


def static_equilibrium(model: dict, *, load_steps: int = 10, time: float = 0.0, tol: float = 1e-10, max_iterations: int = 50) -> Equilibrium:
    """Equilibrium of ``model`` under its loads (and gravity) evaluated at ``time``."""
    asm = Assembly(compile_model(model))
    return solve_static(asm, load_steps=load_steps, time=time, tol=tol, max_iterations=max_iterations)


def solve_static(asm: Assembly, *, load_steps: int = 10, time: float = 0.0, tol: float = 1e-10, max_iterations: int = 50) -> Equilibrium:
    sys = asm.sys
    cons = sys.constraints
    n = asm.n
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
    return Equilibrium(asm, q, lam, history)
