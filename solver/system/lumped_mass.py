"""The row-sum lumped mass of a system: the mass each dof carries alone, kg (kg m^2).

A translational dof carries the mass that moves with it when the whole system translates
along its axis, the row sum ``(M 1_x)_i`` (``(M 1_y)_i``) of the consistent mass matrix
(eq. 2.32): half of each beam element's mass at each of its nodes, a body's or a lumped
mass's own mass.  Any other dof (a rotation, a modal coordinate) carries the diagonal
``M_ii``.  The row sums keep the linear momentum: ``1_x^T M_L dv = 1_x^T M dv`` for a
velocity change ``dv`` of the translational dofs.

Used for the velocity jump at a Lagrange contact's onset (:func:`solver.contact.jump.lumped_response`).
"""
from __future__ import annotations

import numpy as np

from .assembly import Assembly


def lumped_masses(asm: Assembly, q: np.ndarray, t: float) -> np.ndarray:
    """``diag(M_L)`` (n,) at ``(q, t)``: row sums on the translational dofs, ``M_ii`` elsewhere."""
    n = asm.n
    zero = np.zeros(n)
    _f, blocks, diag = asm.forces(q, zero, zero, t, blocks=(1.0, 0.0, 0.0))
    out = diag.copy()
    np.add.at(out, asm.sys.elem_dofs.ravel(), np.diagonal(blocks, axis1=1, axis2=2).ravel())
    for axis in (0, 1):
        dofs = asm.sys.node_dofs[:, axis]
        unit = np.zeros(n)
        unit[dofs] = 1.0
        out[dofs] = asm.forces(q, zero, unit, t).inertial[dofs]
    return out
