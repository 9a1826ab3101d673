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
from ..model.paths import split_path
from ..system.assembly import Assembly
from ..system.bordered import ContactRows, bordered_solve
from ..system.contact_pairs import ContactGeometry
from ..system.initial import velocity_correction
from ..system.state import State
from .routh import ImpactResult, routh_impulse


def impulse_reactions(asm: Assembly, q: np.ndarray, t: float, J: np.ndarray,
                      held: ContactRows | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(X, L, Lam)``: the velocity jump ``X`` (n, 2), the impulses of the rows ``held`` ``L``
    (c, 2, N s) and the impulses ``Lam`` (m, 2; N s, N m s on a rotation) the constraints' rows take,
    per unit contact impulse (N s), with the joints and those rows kept (``[M s G^T; s G 0]``, ``Lam = s y``:
    the rows act on the dofs by ``-G^T Lam``; the drivers' prescribed motions, the first d rows ``q_i =
    f(t)``, take ``Y = -Lam[:d]`` on their dofs)."""
    n = asm.n
    lu, scale = asm.mass_factors(q, t)
    rhs = np.zeros(n + asm.m)
    count = held.count if held is not None else 0
    X, L, Lam = np.empty((n, 2)), np.zeros((count, 2)), np.empty((asm.m, 2))
    for k in range(2):
        rhs[:n] = J[k]
        if not count:
            x = lu.solve(rhs)
        else:
            x, L[:, k] = bordered_solve(lu, held, rhs, np.zeros(count))
        X[:, k], Lam[:, k] = x[:n], scale * x[n:]
    return X, L, Lam


#: a contact point whose masses take at most this share of a unit normal impulse (:func:`moved_share`) is held by
#: the joints, drivers and held rows: round-off leaves 7e-16 at the tip of a driven rigid link (its ``D_nn``
#: 1.7e-27 or -1.1e-27 by the step); a point 1 nm from the pin of a uniform 1 m rod has 1.4e-9
HELD_SHARE = 1e-9


def moved_share(asm: Assembly, q: np.ndarray, J_n: np.ndarray, Lam_n: np.ndarray, L_n: np.ndarray,
                held: ContactRows | None) -> float:
    """The share of a unit contact impulse along ``J_n`` (a row of the contact's Jacobian) that the masses take,
    ``|M X_n| / |J_n|``: the first row of the impulse-momentum balance (eqs. 3.10-3.21) gives the momentum the
    impulse imparts, ``M X_n = J_n^T - G^T Lam_n + C L_n`` (``Lam_n, L_n``: the constraints' and the held rows'
    impulses, :func:`impulse_reactions`), the rest taken by the joints, the drivers and the held rows.  A free
    point has 1; a point of a uniform rigid rod (length ``L``) pinned at one end, struck across it at ``r`` from
    the pin, ``r sqrt(1.5^2 + (L / 4)^2) / (L |J_n|)`` (its centre's momentum and its rotation's, N s and N m s
    per N s: 1.36 at the end of a 1 m rod); a point the joints and drivers hold, round-off (7e-16 at the tip of
    a driven rigid link), where ``D = J X`` is round-off too and no longer tells a tiny ``D`` from a negative one."""
    cons = asm.sys.constraints
    p = J_n - np.bincount(cons.cols, cons.values(q) * Lam_n[cons.rows], minlength=asm.n)
    if held is not None and held.count:
        p += held.force(asm.n, L_n)
    return math.sqrt(float(p @ p) / float(J_n @ J_n))


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
                      held: ContactRows | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(X, D, L, Lam)``: :func:`contact_inertia` and the impulses of the rows ``held`` and of the constraints'
    rows per unit contact impulse (:func:`impulse_reactions`, from the same solves)."""
    X, L, Lam = impulse_reactions(asm, q, t, J, held)
    (a, c_1), (c_2, b) = (J @ X).tolist()
    if not holds_slip(held):
        c_1 = c_2 = 0.5 * (c_1 + c_2)
    eps = 1e-12 * (a + b)
    return X, np.array([[a + eps, c_1], [c_2, b + eps]]), L, Lam


def driver_work(asm: Assembly, v: np.ndarray, Lam: np.ndarray) -> float:
    """The work (J) of the drivers' prescribed motions (the constraints' first d rows, ``q_i = f(t)``) through an
    impulse of the constraints' rows ``Lam`` (m,; :func:`impulse_reactions`), ``Y = -Lam[:d]`` on their dofs:
    each holds its dof's velocity ``v_i = f'(t)`` (m/s or rad/s) as it acts, so its work is ``Y_i f'(t)``; that
    of a fixed dof, or of any joint, is zero.  A contact impulse on a driven link is met by the driver's, and
    the kinetic energy's jump is the contact's work (Routh's ``W_n + W_t``) and this."""
    cons = asm.sys.constraints
    return float(-Lam[:len(cons.dm_dofs)] @ v[cons.dm_dofs])


def joint_velocities(asm: Assembly, s: State, held: ContactRows | None = None) -> tuple[State, float, float]:
    """``s`` with the velocities its joints and drivers allow, ``G v = -g_t``, the rows ``held``
    keeping theirs (:func:`~solver.system.initial.velocity_correction`: an impulse of the joints and
    drivers, least kinetic energy), and that impulse's works (J): the joints', and the drivers'
    (:func:`driver_work` at the rates ``f'(t)`` the impulse brings their dofs to), which together
    make the jump of the kinetic energy (eq. 2.31).  With ``dv`` the correction and ``M dv = -G^T
    Lam (+ C L)`` it is ``dT = -dv^T M dv / 2 - Lam_d . f' (+ L^T C^T (v + dv))``: the joints' part
    is the loss ``-dv^T M dv / 2`` of the least-energy impulse (and the held rows' impulses on what
    they hold), whatever the drivers do; the drivers' part, first order in the correction, is
    theirs (the 5-mode pendulum driven through a ramp to -4 rad/s and landing under the Lagrange
    model: 3.1e-5 J over 18 onsets, up to 1.25e-5 J at one, which the ledger booked as restitution,
    the term then falling).

    The Newmark step holds the joints at position level only: where ``G`` turns with ``q`` (a
    modal link's nodes on its floating frame) its velocities meet them to the step's error, which
    the trapezoidal rule does not damp; the next step, however short, takes that error back as a
    jump of twice its size (1.1e-3 m/s at the tip of the 5-mode pendulum after a 3 ms open run),
    which a Lagrange pair's slip velocity would read as a slip reversing within any step."""
    dv, Lam = velocity_correction(asm, s.q, s.v, s.t, held)
    v = s.v + dv
    drivers = driver_work(asm, v, Lam)
    work = asm.kinetic_energy(s.q, v) - asm.kinetic_energy(s.q, s.v)
    return State(s.t, s.q, v, s.a, s.lam, s.a_pseudo, s.lam_c), work - drivers, drivers


def held_point(asm: Assembly, t: float, pair: str, share: float, Lam: np.ndarray, L: np.ndarray) -> SolverError:
    """The error of an impulse at ``pair`` whose point the joints, drivers or held rows hold along the normal
    (the masses take ``share`` of a unit impulse, :func:`moved_share`; ``Lam, L`` the constraints' and the held
    rows' impulses per unit normal impulse), naming the drivers that take part: a prescribed motion does not
    give way to an impact.  Before, an impulse from a round-off ``D`` (2.3e27 N s at the tip of a driven rigid
    link) made the energy jump in the next step, and the run stopped with a smaller step as the advice."""
    cons = asm.sys.constraints
    moving = [i for i, f in enumerate(cons.functions) if f is not None]
    drivers = [split_path(cons.owners[i])[1][0] for i in moving if abs(Lam[i]) > HELD_SHARE]
    others = [kind for kind, impulse in (("the joints", np.delete(Lam, moving)), ("the contacts held closed", L))
              if np.any(np.abs(impulse) > HELD_SHARE)]
    named = [f"driver{'s' if len(drivers) > 1 else ''} {', '.join(map(repr, drivers))}"] if drivers else []
    holders = " and ".join(named + others) or "the joints"
    verb = "holds" if holders.startswith("driver ") and not others else "hold"
    advice = ("a prescribed motion does not give way to an impact: drive the link by a load (a torque or force) "
              "rather than a driver, or end the driven motion before the point reaches the target") if drivers else (
              "a held point takes no impact: remove the pair, or free the point")
    return SolverError(f"stopped at t = {t:.6g} s: the impulse of contact '{pair}' cannot be computed: its point "
                       f"cannot move along the contact, {holders} {verb} it there (the masses would take {share:.1g} "
                       f"of the impulse); {advice}")


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
    starts from the velocities the joints allow (:func:`joint_velocities`, its works the result's
    ``W_joints`` and part of its ``W_drivers``), as the momentum balance with the joints held (eqs. 3.10-3.21)
    presumes.  A point the joints and drivers hold along the normal (:func:`moved_share` at most
    :data:`HELD_SHARE`) raises :func:`held_point`'s error: its ``D`` is round-off, of either sign."""
    W_joints = W_drivers = 0.0
    if joints:
        s, W_joints, W_drivers = joint_velocities(asm, s, held)
    v_n0, v_t0 = geom.velocity(s.v).tolist()
    if v_n0 >= 0.0:  # the points part (with ``joints``, at the velocities the joints allow): no impulse
        return s.v, None, np.zeros(0)
    X, D, L, Lam = contact_reactions(asm, s.q, s.t, geom.J, held)
    (a, c), (c_tn, b) = D.tolist()
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c) and math.isfinite(c_tn)):
        raise SolverError(f"stopped at t = {s.t:.6g} s: the impulse of contact '{pair}' cannot be computed: its "
                          "inverse inertia is not finite (masses or stiffnesses beyond what the solver can use)")
    share = moved_share(asm, s.q, geom.J[0], Lam[:, 0], L[:, 0], held)
    if share <= HELD_SHARE:
        raise held_point(asm, s.t, pair, share, Lam[:, 0], L[:, 0])
    if not (a > 0.0 and a * b - c * c_tn > 0.0):
        raise SolverError(f"stopped at t = {s.t:.6g} s: the impulse of contact '{pair}' cannot be computed: "
                          "its point cannot move along the contact (held by a joint or driver, or far heavier "
                          "than what it strikes)")
    res = routh_impulse(D, v_n0, v_t0, mu_s, mu_d, e, law, symmetric=not holds_slip(held))
    W_held, W_held_rows = held_works(s, X, L, held, res.path)
    P = np.array([res.I_n, res.I_t])
    res = replace(res, W_held=W_held, W_held_rows=W_held_rows, W_joints=W_joints,
                  W_drivers=W_drivers + driver_work(asm, s.v, Lam @ P))
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
