"""The end of a Lagrange pair's slip: where within a step it lands (:func:`slip_end`, eq. 4.8), and a
slip stopped by a tangential velocity jump (the model's fallback, thesis §4.6).

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
(:func:`solver.contact.jump.held_works`'s ``(eta - alpha)^T v`` at the middle of the jump).
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


def slip_end(v0: float, m0: float, v1: float, m1: float) -> float:
    """Where within a step a slip velocity first returns to zero, as a fraction of the step: the
    first root in (0, 1] of the cubic Hermite interpolant of its
    values ``v0 >= 0``, ``v1 < 0`` and its rates times the step ``m0, m1`` at the ends (a slip
    from rest, ``v0 = 0``, that turned back within the step has the root 0 and a second one, its
    end); linear interpolation, or the midpoint from rest, when the cubic offers none.

    >>> slip_end(1.0, -1.0, -1.0, -1.0)
    0.5
    >>> round(slip_end(0.0, 4.0, -1.0, -8.0), 6)
    0.850781
    """
    cubic = [2 * v0 + m0 - 2 * v1 + m1, -3 * v0 - 2 * m0 + 3 * v1 - m1, m0, v0]
    found = [r.real for r in np.roots(cubic) if abs(r.imag) <= 1e-12 and 1e-9 < r.real <= 1.0]
    return float(min(found)) if found else (v0 / (v0 - v1) if v0 > 0.0 else 0.5)


def overrun_secant(last: tuple[float, float, float] | None, t0: float, t1: float, phi1: float, t_sw: float) -> float:
    """The slip end (s) of a step begun at ``t0`` (s) that overran it to ``phi1 < 0`` (m/s) at ``t1``: the
    nearer of the cubic's root ``t_sw`` and the secant through this overrun end and the ``last`` one
    ``(t0, t1, phi1)`` of the same pair, where that was of a step from the same ``t0`` and the slip falls with
    time.  The steps taken again end each at the cubic's root, which a stiff chain's slip (its end
    acceleration changing with the step) leaves on the far side: alone it closes in by a few per cent a
    retake and the retakes run out with the slip reversed (by 2.8 % of its largest on a found model),
    friction then pushing the points along their motion."""
    if last is None or last[0] != t0 or last[1] == t1 or (phi1 - last[2]) / (t1 - last[1]) >= 0.0:
        return t_sw
    return min(t_sw, t1 - phi1 * (t1 - last[1]) / (phi1 - last[2]))
