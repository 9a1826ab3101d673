"""A slip stopped by a tangential velocity jump (the Lagrange model's fallback, thesis §4.6).

A sliding Lagrange pair sticks where its slip velocity returns to zero (4.8); the step is
taken again to end there, and a slip reversed by no more than the rows' velocity resolution
``tol_g / h`` counts as landed.  When the retakes run out before that, the pair would stick at
the slip left, reversed: its tangential velocity row (4.29) then brings the slip to zero over
the next step with a multiplier that the ledger books at the steps' ends, and friction can be
booked pushing along the slip (the found model of ``tests/oracles/found_defects.json``: -2.7e-4 J).
Instead the slip left is stopped at once by a tangential impulse at the pair, every other row
(its normal gap, the joints, the other pairs) held: ``[M G^T; G 0]`` bordered by the rows
(:func:`solver.system.bordered.bordered_solve`) with ``R dv = -v_t`` on the stick's tangential
row and 0 on the others.  Its work, the friction's, is booked as friction: the stick's impulse
``Lambda_t`` over the slip falling linearly to zero, ``Lambda_t v_t / 2 <= 0`` (the least
kinetic energy change that stops the slip), and the friction parts of the held sliding rows
(:func:`solver.contact.jump.held_friction_work`'s ``(eta - alpha)^T v`` at the middle of the jump).
"""
from __future__ import annotations

import numpy as np

from ..system.assembly import Assembly
from ..system.bordered import ContactRows, bordered_solve
from ..system.state import State


def stop_slip(asm: Assembly, s: State, rows: ContactRows, row: int, v_t: float) -> tuple[np.ndarray, float]:
    """The velocities after the impulse that brings the slip ``v_t`` (m/s) of the stick row
    ``row`` of ``rows`` to zero with the other rows held, and the friction's work (J, <= 0)."""
    lu, _scale = asm.mass_factors(s.q, s.t)
    target = np.zeros(rows.count)
    target[row] = -v_t
    x, lam = bordered_solve(lu, rows, np.zeros(asm.n + asm.m), target)
    dv = x[:asm.n]
    middle = (s.v + 0.5 * dv)[rows.dofs]
    held = float(lam @ np.einsum("ck,ck->c", rows.col - rows.row, middle))
    return s.v + dv, 0.5 * float(lam[row]) * v_t + held
