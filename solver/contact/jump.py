"""Velocity jumps by contact impulses on the constrained system (thesis §3.3, eqs. 3.10-3.21).

An impulse ``P = (P_n, P_t)`` at a contact changes the generalised velocities by
``M dv = J^T P - G^T Lambda + C Lambda_c`` while the joints and drivers hold (``G dv =
0``: the impulse-momentum balance with the constraints, Predebon's H matrix, ``003_…txt``
§4) and so do the contact rows already in force (``R dv = 0``: a pair held by a
Lagrange multiplier, thesis ch. 4, takes its share of the impulse).  Solving this once
per contact direction gives ``dv = X P`` and the contact-space inverse inertia
``D = J X`` that Routh's method works with (:mod:`solver.contact.routh`).  Both contact
models use it: the momentum-balance model for each impulse, the Lagrange-multiplier
model for the jump at contact onset (§4.7).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from ..errors import SolverError
from ..system.assembly import Assembly
from ..system.bordered import ContactRows, bordered_solve
from ..system.contact_pairs import ContactGeometry
from ..system.initial import velocity_correction
from ..system.state import State
from .routh import ImpactResult, routh_impulse


def impulse_reactions(asm: Assembly, q: np.ndarray, t: float, J: np.ndarray,
                      held: ContactRows | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(X, L, Y)``: the velocity jump ``X`` (n, 2), the impulses of the rows ``held`` ``L``
    (c, 2, N s) and the impulses ``Y`` (d, 2) the prescribed motions of the drivers (the
    constraints' first d rows, ``q_i = f(t)``) take on their dofs, per unit contact impulse (N s),
    with the joints and those rows kept (``[M s G^T; s G 0]``: ``s y`` is the impulse ``-Y`` acts by)."""
    n = asm.n
    lu, scale = asm.mass_factors(q, t)
    rhs = np.zeros(n + asm.m)
    count = held.count if held is not None else 0
    drivers = len(asm.sys.constraints.dm_dofs)
    X, L, Y = np.empty((n, 2)), np.zeros((count, 2)), np.empty((drivers, 2))
    for k in range(2):
        rhs[:n] = J[k]
        if not count:
            x = lu.solve(rhs)
        else:
            x, L[:, k] = bordered_solve(lu, held, rhs, np.zeros(count))
        X[:, k], Y[:, k] = x[:n], -scale * x[n:n + drivers]
    return X, L, Y


def holds_slip(held: ContactRows | None) -> bool:
    """Whether a row of ``held`` slides: its impulse goes along ``eta = n - mu_D sigma t``, not
    along the row it holds (thesis eqs. 4.16-4.18), and ``D`` is not symmetric."""
    return held is not None and bool(held.count) and bool((held.col != held.row).any())


def held_works(s: State, X: np.ndarray, L: np.ndarray, held: ContactRows | None,
               path: tuple[tuple[float, float, float, float], ...]) -> tuple[float, float]:
    """``(friction, rows)``: the works (J) of the impulses ``Lambda`` of the Lagrange pairs' rows ``held``
    while a contact impulse follows ``path`` (Routh's breakpoints ``(I_n, I_t, ...)`` from ``s``; ``X, L`` the
    velocity jump and the rows' impulses per unit contact impulse, :func:`impulse_reactions`),
    ``integral col^T v dLambda``.  Their friction part: a pair sliding under a Lagrange multiplier
    takes its share of the impulse along ``eta = n - mu_D sigma t`` (thesis eq. 4.17), the friction
    part ``-mu_D sigma Lambda`` along ``t``; along each segment of the path the held impulses grow
    linearly and the velocities are affine, so ``integral (eta - n) . v dLambda`` is the trapezoid
    of the segment's ends (zero without sliding rows).  Their rows' part ``Lambda_end^T (R v)``, each held row's impulse
    times the velocity it holds, which the impulse leaves unchanged (``R dv = 0``, eqs. 3.22-3.38).
    That part is zero where the rows hold their pairs at rest (round-off on a straight target) and
    otherwise the work of a held normal impulse on the normal velocity the steps left (a curved or
    moving target); ``0`` for rows of moving supports and masses (their work is ``work_moving``'s)."""
    lagrange = held is not None and bool(held.count) and set(held.holders) <= {"lagrange"}
    if not (holds_slip(held) or lagrange):
        return 0.0, 0.0
    P = np.array([p[:2] for p in path])  # (m, 2) the impulse at the breakpoints, N s
    v = s.v + P @ X.T  # (m, n) the velocities there
    slip = np.einsum("ck,mck->mc", held.col - held.row, v[:, held.dofs])  # (m, c) along the friction, m/s
    friction = float(np.sum(np.diff(P @ L.T, axis=0) * 0.5 * (slip[1:] + slip[:-1]))) if holds_slip(held) else 0.0
    held_v = np.einsum("ck,ck->c", held.row, s.v[held.dofs])  # (c,) what each row holds, m/s (or rad/s)
    return friction, float((P[-1] @ L.T) @ held_v) if lagrange else 0.0


def contact_inertia(asm: Assembly, q: np.ndarray, t: float, J: np.ndarray,
                    held: ContactRows | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(X, D)``: the velocity jump per unit contact impulse (:func:`impulse_reactions`)
    and the contact-space inverse inertia ``D = J X`` (LAJSS eq. 5), symmetrised (its
    round-off) unless a held row slides (:func:`holds_slip`): that ``D`` is taken as it is.

    A mechanism with fewer free dofs than contact directions has a singular ``D`` (a
    pinned pendulum: rank 1); a relative 1e-12 on the diagonal keeps Routh's method defined.
    """
    return contact_reactions(asm, q, t, J, held)[:2]


def contact_reactions(asm: Assembly, q: np.ndarray, t: float, J: np.ndarray,
                      held: ContactRows | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(X, D, L, Y)``: :func:`contact_inertia` and the impulses of the rows ``held`` and of the drivers per
    unit contact impulse (:func:`impulse_reactions`, from the same solves)."""
    X, L, Y = impulse_reactions(asm, q, t, J, held)
    (a, c_1), (c_2, b) = (J @ X).tolist()
    if not holds_slip(held):
        c_1 = c_2 = 0.5 * (c_1 + c_2)
    eps = 1e-12 * (a + b)
    return X, np.array([[a + eps, c_1], [c_2, b + eps]]), L, Y


def driver_work(asm: Assembly, v: np.ndarray, Y: np.ndarray) -> float:
    """The work (J) of the impulses ``Y`` (d,) of the drivers' prescribed motions (:func:`impulse_reactions`)
    through an impulse: each holds its dof's velocity ``v_i = f'(t)`` (m/s or rad/s) as it acts, so its work
    is ``Y_i f'(t)``; that of a fixed dof, or of any joint, is zero.  A contact impulse on a driven link is
    met by the driver's, and the kinetic energy's jump is the contact's work (Routh's ``W_n + W_t``) and this."""
    return float(Y @ v[asm.sys.constraints.dm_dofs])


def joint_velocities(asm: Assembly, s: State, held: ContactRows | None = None) -> tuple[State, float]:
    """``s`` with the velocities its joints and drivers allow, ``G v = -g_t``, the rows ``held``
    keeping theirs (:func:`~solver.system.initial.velocity_correction`: an impulse of the joints,
    least kinetic energy), and that impulse's work, the jump of the kinetic energy (J; a loss
    without drivers).  The Newmark step holds the joints at position level only: where ``G``
    turns with ``q`` (a modal link's nodes on its floating frame) its velocities meet them to
    the step's error, which the trapezoidal rule does not damp; the next step, however short,
    takes that error back as a jump of twice its size (1.1e-3 m/s at the tip of the 5-mode
    pendulum after a 3 ms open run), which a Lagrange pair's slip velocity would read as a slip
    reversing within any step."""
    v = s.v + velocity_correction(asm, s.q, s.v, s.t, held)
    work = asm.kinetic_energy(s.q, v) - asm.kinetic_energy(s.q, s.v)
    return State(s.t, s.q, v, s.a, s.lam, s.a_pseudo, s.lam_c), work


#: the most times :func:`held_jump` lets the held pairs settle (each time one releases or sticks, for good: two a
#: pair at most), after which the impulse is taken once more with the pairs as they are
MAX_SETTLING = 8

#: a pair whose contact-space inverse inertia ``D`` (the joints held) has ``det D`` below this fraction of
#: ``D_nn D_tt`` cannot stick: its point moves (nearly) one way only, and a stick's two rows would hold that
#: motion twice (:func:`sticks_redundantly`)
STICK_RANK = 1e-3


def sticks_redundantly(asm: Assembly, s: State, geom: ContactGeometry) -> bool:
    """Whether a stick of the pair in ``geom`` at ``s`` would hold its point twice: ``det D <``
    :data:`STICK_RANK` ``D_nn D_tt`` with ``D`` of :func:`contact_inertia` (eq. 5, the joints held),
    or ``D_tt <=`` :data:`STICK_RANK` ``D_nn`` (the joints or a driver hold its motion along the
    target: a stick would ask another value of it as the driver moves on, rows that cannot be met).
    A pinned, nearly rigid rod's tip moves across the rod only; the stick's tangential row then
    needs a force along the rod (taken by the pin) beyond any friction cone not containing it, and
    its multipliers grew to 1e9-1e16 N until Newton met a singular matrix (the 3-mode pendulum at a
    quarter of its step under the Lagrange model; the rigid one at once).  Such a pair slides on
    instead, its friction turning with the slip (as without static friction, thesis eq. 4.5)."""
    (a, c), (c_tn, b) = contact_inertia(asm, s.q, s.t, geom.J)[1]
    return a * b - c * c_tn < STICK_RANK * a * b or b <= STICK_RANK * a


def velocity_jump(asm: Assembly, s: State, geom: ContactGeometry, mu_s: float, mu_d: float, e: float, law: str,
                  held: ContactRows | None = None, pair: str = "",
                  joints: bool = False) -> tuple[np.ndarray, ImpactResult | None, np.ndarray]:
    """The velocities after Routh's impulse at ``pair`` in ``geom``, the impulse itself and the impulses of the
    rows ``held`` it took (N s; the velocities, None and no impulses where the points do not approach);
    :class:`SolverError` when its contact-space inverse inertia is unusable.  With ``joints`` the impulse
    starts from the velocities the joints allow (:func:`joint_velocities`, its work the result's
    ``W_joints``), as the momentum balance with the joints held (eqs. 3.10-3.21) presumes."""
    W_joints = 0.0
    if joints:
        s, W_joints = joint_velocities(asm, s, held)
    v_n0, v_t0 = geom.velocity(s.v).tolist()
    if v_n0 >= 0.0:  # the points part (with ``joints``, at the velocities the joints allow): no impulse
        return s.v, None, np.zeros(0)
    X, D, L, Y = contact_reactions(asm, s.q, s.t, geom.J, held)
    (a, c), (c_tn, b) = D.tolist()
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c) and math.isfinite(c_tn)):
        raise SolverError(f"stopped at t = {s.t:.6g} s: the impulse of contact '{pair}' cannot be computed: its "
                          "inverse inertia is not finite (masses or stiffnesses beyond what the solver can use)")
    if not (a > 0.0 and a * b - c * c_tn > 0.0):
        raise SolverError(f"stopped at t = {s.t:.6g} s: the impulse of contact '{pair}' cannot be computed: "
                          "its point cannot move along the contact (held by a joint or driver, or far heavier "
                          "than what it strikes)")
    res = routh_impulse(D, v_n0, v_t0, mu_s, mu_d, e, law, symmetric=not holds_slip(held))
    W_held, W_held_rows = held_works(s, X, L, held, res.path)
    P = np.array([res.I_n, res.I_t])
    res = replace(res, W_held=W_held, W_held_rows=W_held_rows, W_joints=W_joints, W_drivers=driver_work(asm, s.v, Y @ P))
    return s.v + X @ P, res, L @ P


@dataclass(frozen=True)
class Held:
    """What a velocity jump holds: ``rows(s)``, the contact rows in force at ``s`` (None when there are
    none), and ``settle(s, v, lam)``, which the pairs those rows hold answer for an impulse from ``s`` to the
    velocities ``v`` (m/s) with the rows' impulses ``lam`` (N s): ``s`` again with a pair released that the
    impulse would pull, or with the slips stopped of the pairs sliding under a row whose slip it would turn,
    now sticking; None when it does neither (:meth:`~.tracker.ContactTracker.settle`)."""

    rows: Callable[[State], ContactRows | None]
    settle: Callable[[State, np.ndarray, np.ndarray], State | None]


def held_jump(asm: Assembly, s: State, geom: ContactGeometry, pair, e: float, law: str, held: Held,
              joints: bool = False) -> tuple[State, np.ndarray, ImpactResult | None]:
    """:func:`velocity_jump` at ``pair`` (its ``mu_s, mu_d, id``) with the rows ``held.rows(s)`` kept, taken
    again while the pairs they hold settle (``held.settle``): a pair the impulse would pull is released (a
    unilateral contact parts, 4.1), and a pair whose slip it would turn sticks, its slip stopped first.  Held
    on, the first pulls and the second's friction, kept along its slip for the whole impulse (eq. 4.17), pushes
    its points on past rest: either creates energy (``tests/oracles/found_defects.json``).  Returns the state
    the impulse starts from, the velocities after it and the impulse (None, and the state's velocities, where
    the points no longer approach: the pairs settled, or the velocities the joints allow, part them)."""
    def jump(st: State) -> tuple[np.ndarray, ImpactResult | None, np.ndarray]:
        return velocity_jump(asm, st, geom, pair.mu_s, pair.mu_d, e, law, held.rows(st), pair.id, joints)

    for _ in range(MAX_SETTLING):
        v, res, lam = jump(s)
        settled = held.settle(s, v, lam) if res is not None else None
        if settled is None:
            return (s, v, res) if res is not None else (s, s.v, None)
        s = settled
    v, res, _lam = jump(s)  # the pairs as they are left
    return (s, v, res) if res is not None else (s, s.v, None)
