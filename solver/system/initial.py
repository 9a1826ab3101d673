"""Initial velocities and accelerations consistent with joints and drivers.

Explicit velocities from the model are taken as given (a moving mass starts at the
speed of its travel); with
``solver.consistent_initial_velocity`` the velocity field is then corrected by the
smallest change that satisfies the velocity constraints ``G v = -g_t``, measured by
the dimensionless deformation rates of the beams, and among the rigid motions the
joints allow by its norm ``|dv|`` (sparse: cost and memory linear in the elements).
A mechanism driven at 150 rad/s therefore starts with its rigid velocity field,
not at rest, and flexible links start without deformation rates.  The initial
accelerations and multipliers solve ``[M G^T; G 0] [a; lambda] = [-Psi(a=0); gamma]``.

With ``solver.initial_shape = "static"`` the run starts from the static equilibrium under
the loads, free strains and gravity at t = 0 (:func:`static_shape`) instead of the sketched
shape: a link pre-bent by a thermal gradient or an end moment then starts bent, with nothing
to ring.  Ramped on from the sketched shape instead, the kinks of the ramp put into the
link's stiffest modes a transient far shorter than the step, which the trapezoidal rule
(tau = 0.5) does not damp: with stiffness-proportional damping beta those modes are
overdamped and their step-to-step amplification is ``-1 + 4 / (beta omega^2 h)``, so their
accelerations alternate in sign for the rest of the run (docs/solver.md).
"""
from __future__ import annotations

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from .assembly import Assembly, global_matrix
from .bordered import ContactRows, bordered_solve
from .compile import System
from .equilibrium import solve_static
from .rigid_fields import rigid_motions
from ..errors import SolverError
from ..fem.beam import deformations
from .state import State


def link_centre(system: System, link: str) -> np.ndarray:
    """The point (m) whose velocity a ``link`` entry of ``initial_velocities`` gives: the middle of
    the link's first two nodes as sketched (a flexible or modal link's ends, a rigid link's default
    centre of mass), whatever its mesh."""
    first, second = next(entry["nodes"][:2] for entry in system.doc["links"] if entry["id"] == link)
    nodes = dict(zip(system.node_ids, system.node_dofs))
    return 0.5 * (system.q0[nodes[first]] + system.q0[nodes[second]])


def explicit_velocity(system: System) -> np.ndarray:
    """The velocity vector of the model's ``initial_velocities`` entries."""
    v = np.zeros(system.n)
    nodes = dict(zip(system.node_ids, system.node_dofs))
    xy0 = {nid: system.q0[d] for nid, d in nodes.items()}
    bodies = {name: dofs[:3] for name, dofs in [*system.rigid_bodies, *system.modal.frames]}
    for entry in system.doc["initial_velocities"]:
        vx, vy, w = entry["vx"], entry["vy"], entry["omega"]
        if "node" in entry or "body" in entry:
            nid = entry.get("node", entry.get("body"))
            v[nodes[nid]] = (vx, vy)
            for (n, _l), d in zip(system.rot_slots, system.rot_dofs):
                if n == nid:
                    v[d] = w
            if nid in bodies:
                v[list(bodies[nid])] = (vx, vy, w)
            continue
        link = entry["link"]
        members = {n for (n, l) in system.rot_slots if l == link}
        members |= {a for (l, _k, a, _z) in system.elem_info if l == link} | {z for (l, _k, _a, z) in system.elem_info if l == link}
        centre = link_centre(system, link)
        def field(p):
            return (vx - w * (p[1] - centre[1]), vy + w * (p[0] - centre[0]))
        for m in members:
            v[nodes[m]] = field(xy0[m])
        for (n, l), d in zip(system.rot_slots, system.rot_dofs):
            if l == link:
                v[d] = w
        if link in bodies:
            bx, by, bphi = bodies[link]
            v[[bx, by]] = field(system.q0[[bx, by]])
            v[bphi] = w
    for m in system.movers:  # a moving mass starts at the speed of its prescribed travel
        if m.mass_dofs is not None:
            v[list(m.mass_dofs)] = m.path.direction * m.position.rate(0.0)
    return v


def deformation_rates(asm: Assembly, q: np.ndarray) -> sp.csr_matrix:
    """Sparse global matrix of the dimensionless deformation rates ``(udot/L, tb1dot, tb2dot)``
    of every beam (rows of B: r/L, e3 - z/l, e6 - z/l), and ``q'/L`` of every modal
    coordinate, (3E + modal coordinates, n); zero for rigid motion."""
    sysm = asm.sys
    d = deformations(q, sysm.elem_dofs, asm.secs)
    c, s, l, L = d[:, 0], d[:, 1], d[:, 2], sysm.beams.L
    E = len(c)
    zero = np.zeros(E)
    B = np.empty((E, 3, 6))
    B[:, 0] = np.stack([-c, -s, zero, c, s, zero], axis=1) / L[:, None]
    zl = np.stack([s, -c, zero, -s, c, zero], axis=1) / l[:, None]
    B[:, 1] = -zl
    B[:, 2] = -zl
    B[:, 1, 2] += 1.0
    B[:, 2, 5] += 1.0
    rows = np.repeat(np.arange(3 * E), 6)
    cols = np.broadcast_to(sysm.elem_dofs[:, None, :], (E, 3, 6)).ravel()
    beams = sp.csr_matrix((B.ravel(), (rows, cols)), shape=(3 * E, asm.n))
    return sp.vstack([beams, sysm.modal.rate_rows(asm.n)], format="csr")


def velocity_constraints(asm: Assembly, q: np.ndarray, t: float) -> tuple[sp.csr_matrix, np.ndarray]:
    """``(G, h)`` of the velocity conditions ``G v = h`` at the start of a run: the joints and
    drivers (``h = -g_t``), and the journal and bearing centres of every clearance joint
    moving as one, as if the joint were an ideal pin
    (:attr:`~solver.system.compile.System.initial_ties`)."""
    cons, ties = asm.sys.constraints, asm.sys.initial_ties
    pairs = np.array(ties, dtype=np.int64).reshape(-1, 4)  # jx, jy, bx, by
    k = np.arange(len(ties))
    tie_rows = np.concatenate([2 * k, 2 * k, 2 * k + 1, 2 * k + 1])
    tie_cols = np.concatenate([pairs[:, 0], pairs[:, 2], pairs[:, 1], pairs[:, 3]])
    tie_vals = np.repeat([1.0, -1.0, 1.0, -1.0], len(ties))
    T = sp.csr_matrix((tie_vals, (tie_rows, tie_cols)), shape=(2 * len(ties), asm.n))
    G = sp.vstack([cons.jacobian(q, asm.n), T], format="csr")
    return G, np.concatenate([cons.velocity_rhs(t), np.zeros(2 * len(ties))])


def constrained_least_squares(A: sp.spmatrix, b: np.ndarray, G: sp.spmatrix, c: np.ndarray) -> np.ndarray:
    """``w`` of least ``|A w - b|`` with ``G w = c`` (A of full column rank on ``null(G)``, G of
    full row rank), from the sparse augmented system, which keeps the condition of ``A``
    rather than squaring it as the normal equations would (Björck, *Numerical Methods for
    Least Squares Problems*, SIAM 1996, the augmented system):

        [ -alpha I  A    0  ] [ (A w - b) / alpha ]   [ b ]
        [  A^T      0   G^T ] [ w                 ] = [ 0 ]
        [  0        G    0  ] [ mu                ]   [ c ]

    ``alpha`` and the scale of G are the typical size of A's entries; sparse LU (SuperLU)
    and one step of iterative refinement.  Raises :class:`~solver.errors.SolverError`
    when the conditions are redundant or contradict each other (a singular system)."""
    m, n = A.shape
    size = np.exp(np.mean(np.log(np.abs(A.data[A.data != 0])))) if A.nnz else 1.0
    K = sp.bmat([[-size * sp.identity(m), A, None], [A.T, None, size * G.T], [None, size * G, None]], format="csc")
    rhs = np.concatenate([b, np.zeros(n), size * c])
    try:
        lu = spla.splu(K)
        x = lu.solve(rhs)
        x += lu.solve(rhs - K @ x)
    except RuntimeError:  # an exactly singular factor
        x = np.full(rhs.size, np.nan)
    if not np.all(np.isfinite(x)):
        raise SolverError("no consistent initial velocity: the joints and drivers leave none "
                          "(some of them are redundant or contradict each other)")
    return x[m : m + n]


def rigid_velocity_correction(asm: Assembly, q: np.ndarray, v: np.ndarray, t: float) -> np.ndarray:
    """The change of ``v`` that meets ``G v = -g_t`` exactly with the smallest deformation
    rates of the beams (zero when the mechanism can move rigidly; no regularisation, so a
    finely meshed link still starts exactly rigid), that keeps the rate ``omega`` of every
    link an ``initial_velocities`` entry turns (:func:`stated_rates`) where the joints allow
    it, and is otherwise of least kinetic energy ``1/2 dv^T M dv`` (the consistent mass is
    exact for rigid fields): none of it depends on the mesh.  A pendulum given omega about its
    centre turns at omega about its pin; the rest of a mechanism follows as an impulse would
    move it (thesis eqs. 3.10-3.21).  Before, the least ``|dv|`` counted the mesh's nodes and
    rates in rad/s against velocities in m/s: the pendulum started at a rate its mesh set.

    The deformation rates B are least at ``dv + r`` for every rigid motion ``r`` the joints
    allow (:func:`~solver.system.rigid_fields.rigid_motions`, a basis Y); pinning ``dv`` at
    ``k = rank Y`` dofs that Y moves makes the least-squares problem definite
    (:func:`constrained_least_squares`); ``dv - Y z`` (:func:`_least_energy_motion`, after
    removing ``Y Y^T dv``: what no mass measures is least) is the one kept.
    Without beams and modal links, ``dv`` is the least change that meets the constraints and
    keeps the stated rates where they allow it (:func:`_least_change`).
    Cost and memory are linear in the number of elements (sparse factors)."""
    n = asm.n
    G, h = velocity_constraints(asm, q, t)
    B = deformation_rates(asm, q)
    if not B.shape[0]:
        return _least_change(n, G, h - G @ v, stated_rates(asm.sys))
    Y = rigid_motions(asm.sys, q, G)
    k = Y.shape[1]
    pinned = sla.qr(Y.T, pivoting=True, mode="r")[1][:k]
    fix = sp.csr_matrix((np.ones(k), (np.arange(k), pinned)), shape=(k, n))
    dv = constrained_least_squares(B, -(B @ v), sp.vstack([G, fix]), np.concatenate([h - G @ v, np.zeros(k)]))
    dv -= Y @ (Y.T @ dv)
    MY = global_matrix(asm, q, t, (1.0, 0.0, 0.0)) @ Y
    return dv - Y @ _least_energy_motion(Y.T @ MY, MY.T @ dv, Y[stated_rates(asm.sys)], dv[stated_rates(asm.sys)])


def _least_change(n: int, G: sp.spmatrix, c: np.ndarray, rates: list[int]) -> np.ndarray:
    """The least ``dv`` (n,) with ``G dv = c`` that leaves the dofs ``rates`` unchanged where the
    conditions allow it (else the least without that): a mechanism without beams."""
    identity = sp.identity(n, format="csr")
    if rates:
        kept = sp.csr_matrix((np.ones(len(rates)), (np.arange(len(rates)), rates)), shape=(len(rates), n))
        try:
            return constrained_least_squares(identity, np.zeros(n), sp.vstack([G, kept]),
                                             np.concatenate([c, np.zeros(len(rates))]))
        except SolverError:  # the joints or drivers set another rate, or this one already
            pass
    return constrained_least_squares(identity, np.zeros(n), G, c)


def stated_rates(system: System) -> list[int]:
    """One rotation dof of each link that an ``initial_velocities`` entry gives an ``omega``."""
    bodies = {name: dofs[2] for name, dofs in [*system.rigid_bodies, *system.modal.frames]}
    slots = {}
    for (_node, link), dof in zip(system.rot_slots, system.rot_dofs):
        slots.setdefault(link, int(dof))
    links = [entry["link"] for entry in system.doc["initial_velocities"] if "link" in entry]
    return [bodies[link] if link in bodies else slots[link] for link in links if link in bodies or link in slots]


def _least_energy_motion(A: np.ndarray, b: np.ndarray, C: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``z`` of least ``z^T A z / 2 - b^T z`` (the kinetic energy of ``dv - Y z``: ``A = Y^T M Y``,
    ``b = Y^T M dv``) with ``C z = c`` (the stated rates kept) where the joints allow it, else
    without (least-squares solutions: a motion no mass measures is left at zero)."""
    k = A.shape[0]
    if len(c):
        K = np.block([[A, C.T], [C, np.zeros((len(c), len(c)))]])
        z = np.linalg.lstsq(K, np.concatenate([b, c]), rcond=1e-12)[0][:k]
        if np.abs(C @ z - c).max() <= 1e-9 * max(1.0, np.abs(c).max()):
            return z
    return np.linalg.lstsq(A, b, rcond=1e-12)[0]


def consistent_acceleration(asm: Assembly, q: np.ndarray, v: np.ndarray, t: float,
                            rows: ContactRows | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Accelerations and multipliers at ``(q, v, t)``: ``[M G^T; G 0] [a; lambda] = [-Psi(a=0); gamma]``,
    bordered by the contact ``rows`` (``R a = gamma_c``, their forces ``C lambda_c``
    applied, thesis eq. 4.4); returns ``(a, lambda, lambda_c)``."""
    cons = asm.sys.constraints
    fr = asm.forces(q, v, np.zeros(asm.n), t)
    lu, scale = asm.mass_factors(q, t)
    rhs = np.concatenate([-fr.residual, scale * cons.gamma(q, v, t)])
    if rows is None or not rows.count:
        x, lam_c = lu.solve(rhs), np.zeros(0)
    else:
        x, lam_c = bordered_solve(lu, rows, rhs, rows.gamma)
    return x[: asm.n], scale * x[asm.n :], lam_c


def velocity_correction(asm: Assembly, q: np.ndarray, v: np.ndarray, t: float,
                        held: ContactRows | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(dv, Lam)``: the change ``dv`` of least kinetic energy ``1/2 dv^T M dv`` that makes ``G (v + dv) =
    -g_t`` (an impulse of the joints and drivers, ``M dv = -G^T Lam``, thesis eqs. 3.10-3.21), the contact
    rows ``held`` keeping their velocities (``R dv = 0``), and the impulses ``Lam`` (m,; N s, N m s on a
    rotation) of the constraints' rows."""
    cons = asm.sys.constraints
    lu, scale = asm.mass_factors(q, t)
    rhs = np.concatenate([np.zeros(asm.n), scale * (cons.velocity_rhs(t) - cons.jacobian(q, asm.n) @ v)])
    x = lu.solve(rhs) if held is None or not held.count else bordered_solve(lu, held, rhs, np.zeros(held.count))[0]
    return x[: asm.n], scale * x[asm.n :]


def static_shape(asm: Assembly, t: float = 0.0) -> np.ndarray:
    """The positions ``q`` of the static equilibrium at ``t`` (:func:`.equilibrium.solve_static`),
    the moving masses held on their tracks; raises :class:`~solver.errors.SolverError`, naming
    ``solver.initial_shape``, when there is none or a moving support or mass starts on its link
    (the static solution holds no moving rows)."""
    field = "solver.initial_shape = static"
    for m in asm.sys.movers:
        if m.kind == "support" or (m.kind == "mass" and m.path.on(m.position.value(t))):
            raise SolverError(f"{field}: the moving {m.kind} '{m.id}' is on its link at t = {t:g} s, and the "
                              "static start holds no moving supports or masses on a link; start a mass before "
                              "the link (position s < 0), or start from the sketched shape")
    held = tuple(d for m in asm.sys.movers if m.mass_dofs is not None for d in m.mass_dofs)
    try:
        return solve_static(asm, time=t, held=held)[0]
    except SolverError as exc:
        raise SolverError(f"{field}: {exc}") from None


def initial_state(asm: Assembly, t: float = 0.0) -> State:
    """Consistent ``(q, v, a, lambda)`` at the start of a run, from the sketched or the static shape."""
    sys = asm.sys
    q = static_shape(asm, t) if sys.settings["initial_shape"] == "static" else sys.q0.copy()
    v = explicit_velocity(sys)
    if sys.settings["consistent_initial_velocity"] and asm.m:
        v = v + rigid_velocity_correction(asm, q, v, t)
    a, lam, _ = consistent_acceleration(asm, q, v, t)
    return State(t, q, v, a, lam)


def restart(asm: Assembly, s: State, rows: ContactRows | None = None, jump: bool = True) -> State:
    """Restart at a breakpoint: where a driver's rate jumps the constrained velocities
    jump by an impulse (least kinetic-energy change, ``[M G^T; G 0]``; with ``jump``),
    then the accelerations and multipliers are made consistent with the loads after the
    jump and with the contact ``rows`` in force from here on."""
    v = s.v
    if asm.m and jump:
        v = v + velocity_correction(asm, s.q, v, s.t)[0]
    a, lam, lam_c = consistent_acceleration(asm, s.q, v, s.t, rows)
    return State(s.t, s.q, v, a, lam, lam_c=lam_c)
