"""Static equilibrium under the model's loads: Newton with load stepping
(:func:`solver.system.equilibrium.solve_static`, eqs. 2.54-2.61 without the inertia
terms), each step starting from the previous equilibrium, so large rotations (a
cantilever rolled into a circle by an end moment) are followed continuously.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..system.assembly import Assembly
from ..system.compile import compile_model
from ..system.equilibrium import solve_static


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
    q, lam, history = solve_static(asm, load_steps=load_steps, time=time, tol=tol, max_iterations=max_iterations)
    return Equilibrium(asm, q, lam, history)
