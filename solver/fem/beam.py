"""Corotational planar beam element, compiled and batched over all elements of a run.

Element coordinates are inertial (thesis §2.1): ``q_e = [x1, y1, theta1, x2, y2, theta2]``
with ``theta`` the rotation of the cross-section from the sketched configuration.
The corotational frame follows the chord (thesis eq. 2.65: no transverse local
displacement), so the local deformations are the extension ``u = l - L`` and the
slopes ``tb1, tb2`` of the ends relative to the chord.

Two formulations are offered (``solver.formulation``):

``thesis``
    As printed: internal force ``f = Q^T K_bar d_bar`` (eqs. 2.39-2.40) with
    ``K_bar = K1 + K2(T_s)`` (A.14-A.17), tangent ``K_T = Q^T K_bar Q`` (2.57),
    inertia force ``M d_ddot`` with ``M = Q^T M_bar Q`` (2.32, 2.34, A.24-A.26).
``consistent`` (default)
    The same strain energy (A.5, with the mean extension including the
    ``1/2 (v')^2`` term of A.3 so that the axial force and the stress stiffness
    A.16 come from one potential) differentiated exactly: ``f = B^T [N, M1, M2]``
    and the full tangent with the rotating-frame terms.  The inertia comes from the
    exact kinetic energy (A.18) of the interpolated beam, whose points sit at
    ``r(x) = r1 + R(beta) [x l/L, v(x)]`` with the cubic ``v`` of (A.9) in the
    corotational frame: by Lagrange's equations (2.33) the inertia force is
    ``int rhoA (dr/dq)^T r_ddot dx + int rhoI (dphi/dq)^T phi_ddot dx`` with the exact
    accelerations of the points (:mod:`.beam_inertia`).  It keeps the terms eq. (2.34)
    drops (so energy and momenta are conserved), it is exact for rigid motion, and
    in the undeformed state its mass matrix is the thesis's (A.25 + A.26).

Shear flexibility (a section with ``shear``) enters through the shear parameter ``phi`` of the
interdependent-interpolation element (:mod:`.timoshenko`): the same corotational framework with the
IIE's cubic ``v`` and quadratic section rotation in place of (A.9); ``phi = 0`` is Euler-Bernoulli.  Free (thermal and creep) strains: a mean
axial strain ``eps0`` and a curvature ``kappa0`` per element, set for the time of each
evaluation (:mod:`solver.system.free_strains`), enter the strain energy as
``1/2 EA L (eps - eps0)^2 + 1/2 EI int (kappa - kappa0)^2 dx`` (Amirouche & Xie eq. 11).

Every element quantity is computed once, by compiled scalar kernels batched by compiled loops
over the elements (one call per Newton iteration; the analysis, output and test code and
:mod:`.beam_energy` use them too).  Units: m, N, N m; EA in N, EI in N m^2, rhoA in kg/m, rhoI in kg m.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from ..jit import local_array, njit

from . import timoshenko
from .beam_inertia import exact_mass, exact_mass_into, inertia_force, inertia_integrals
from .timoshenko import bending_coefficients, geometric_coefficients, stretch_coefficients

CONSISTENT, THESIS = 0, 1
FORMULATIONS = {"consistent": CONSISTENT, "thesis": THESIS}
TWO_PI = 2.0 * math.pi


@dataclass(frozen=True)
class BeamSet:
    """All beam elements of a run: undeformed geometry and section, shape (E,)."""

    L: np.ndarray  # undeformed length, m
    beta0: np.ndarray  # undeformed chord angle, rad
    EA: np.ndarray
    EI: np.ndarray
    rhoA: np.ndarray
    rhoI: np.ndarray
    phi: np.ndarray | None = None  # shear parameter 12 EI / (k G A L^2) (None: Euler-Bernoulli)

    @property
    def shear(self) -> np.ndarray:
        """The shear parameter of every element (zeros for Euler-Bernoulli)."""
        return np.zeros_like(self.L) if self.phi is None else self.phi

    @property
    def count(self) -> int:
        return self.L.shape[0]

    def local_mass(self) -> np.ndarray:
        """Consistent local mass, translational (A.25) + rotary (A.26) at ``phi = 0``, of the IIE
        otherwise (:func:`.timoshenko.local_mass`), shape (E, 6, 6)."""
        return timoshenko.local_mass(self.L, self.rhoA, self.rhoI, self.shear)

    def sections(self) -> np.ndarray:
        """(E, 25) array of L, EA, EI, beta0, rhoA, rhoI, phi, the free strains eps0, kappa0
        (zero here; :class:`solver.system.free_strains.FreeStrains` sets them) and the inertia
        integrals of :func:`.beam_inertia.inertia_integrals` for the kernels."""
        z = np.zeros_like(self.L)
        base = np.stack([self.L, self.EA, self.EI, self.beta0, self.rhoA, self.rhoI, self.shear, z, z], axis=1)
        return np.ascontiguousarray(np.concatenate(
            [base, inertia_integrals(self.L, self.rhoA, self.rhoI, self.shear)], axis=1))


# ----------------------------------------------------------------------------- scalar kernels
@njit(cache=True)
def _wrap(angle):
    """``angle`` brought into [-pi, pi] (one rounding instead of sines and an arctangent)."""
    return angle - TWO_PI * math.floor(angle / TWO_PI + 0.5)


@njit(cache=True)
def kinematics(q, L, beta0, r, zl):
    """Chord and local deformations of one element; fills r = dl/dq and zl = dbeta/dq.

    Returns ``(c, s, l, u, tb1, tb2)``; the slopes are wrapped (they are small, the
    rotations are not).
    """
    dx = q[3] - q[0]
    dy = q[4] - q[1]
    l = math.hypot(dx, dy)
    c = dx / l
    s = dy / l
    u = (l * l - L * L) / (l + L)
    beta = math.atan2(dy, dx)
    tb1 = _wrap(q[2] + beta0 - beta)
    tb2 = _wrap(q[5] + beta0 - beta)
    r[0], r[1], r[2], r[3], r[4], r[5] = -c, -s, 0.0, c, s, 0.0
    zl[0], zl[1], zl[2], zl[3], zl[4], zl[5] = s / l, -c / l, 0.0, -s / l, c / l, 0.0
    return c, s, l, u, tb1, tb2


@njit(cache=True)
def local_forces(sec, u, t1, t2):
    """Axial force N, end moments M1, M2 and mean strain of the consistent form (``sec``: a
    row of :meth:`BeamSet.sections`).

    Mean strain ``eps = u/L + (A tb1^2 + B tb1 tb2 + A tb2^2) / w``: the uniform extension
    (A.17) plus the mean of ``1/2 (v')^2`` (A.3) for the cubic shape (A.9; ``(2, -1, 30)``)
    or the IIE's; ``N = EA (eps - eps0)``, and the free curvature adds ``+- EI kappa0`` to the
    end moments.  (At ``phi = 0`` and without free strains the arithmetic is the
    Euler-Bernoulli element's, bit for bit.)
    """
    L, EA, EI, phi, eps0, kappa0 = sec[0], sec[1], sec[2], sec[6], sec[7], sec[8]
    kd, ko = bending_coefficients(phi)
    A, B, w = stretch_coefficients(phi)
    eps = u / L + (A * t1 * t1 + B * t1 * t2 + A * t2 * t2) / w
    N = EA * (eps - eps0)
    M1 = EI / L * (kd * t1 + ko * t2) + N * L / w * (2.0 * A * t1 + B * t2) + EI * kappa0
    M2 = EI / L * (ko * t1 + kd * t2) + N * L / w * (2.0 * A * t2 + B * t1) - EI * kappa0
    return N, M1, M2, eps


@njit(cache=True)
def strain_energy_of(sec, u, t1, t2, formulation):
    """Strain energy of one element, J (eq. 2.16 / A.5): ``1/2 EA L (eps - eps0)^2`` and
    ``1/2 EI int (kappa - kappa0)^2 dx`` with the shear energy of the IIE (``int kappa dx =
    tb2 - tb1``); zero in free thermal expansion and bending."""
    L, EA, EI, phi, eps0, kappa0 = sec[0], sec[1], sec[2], sec[6], sec[7], sec[8]
    kd, ko = bending_coefficients(phi)
    h = 0.5 * kd
    bend = EI / L * (h * t1 * t1 + ko * t1 * t2 + h * t2 * t2) - EI * kappa0 * (t2 - t1) \
        + 0.5 * EI * kappa0 * kappa0 * L
    if formulation == THESIS:
        du = u - eps0 * L
        return 0.5 * EA * du * du / L + bend
    A, B, w = stretch_coefficients(phi)
    e = u / L + (A * t1 * t1 + B * t1 * t2 + A * t2 * t2) / w - eps0
    return 0.5 * EA * L * e * e + bend


@njit(cache=True)
def _rotation(c, s, Q, dQ):
    """Q of eq. (2.6) with (A.1), and dQ/dbeta."""
    for i in range(6):
        for j in range(6):
            Q[i, j] = 0.0
            dQ[i, j] = 0.0
    for o in (0, 3):
        Q[o, o], Q[o, o + 1], Q[o + 1, o], Q[o + 1, o + 1], Q[o + 2, o + 2] = c, s, -s, c, 1.0
        dQ[o, o], dQ[o, o + 1], dQ[o + 1, o], dQ[o + 1, o + 1] = -s, c, -c, -s


@njit(cache=True)
def _thesis_stiffness(EA, EI, L, phi, T_s, K):
    """K_bar = K1 (A.15) + K2(T_s) (A.16) in the corotational frame (the IIE's for ``phi > 0``,
    :mod:`.timoshenko`)."""
    for i in range(6):
        for j in range(6):
            K[i, j] = 0.0
    a = EA / L
    K[0, 0] = a
    K[3, 3] = a
    K[0, 3] = -a
    K[3, 0] = -a
    b = EI / (L**3 * (1.0 + phi))
    g = T_s / (30.0 * L * (1.0 + phi) ** 2)
    idx = (1, 2, 4, 5)
    kd, ko = 4.0 + phi, 2.0 - phi
    bend = ((12.0, 6.0, -12.0, 6.0), (6.0, kd, -6.0, ko), (-12.0, -6.0, 12.0, -6.0), (6.0, ko, -6.0, kd))
    vv, vt, tt, tT = geometric_coefficients(phi)
    geo = ((vv, vt, -vv, vt), (vt, tt, -vt, tT), (-vv, -vt, vv, -vt), (vt, tT, -vt, tt))
    rot = (0, 1, 0, 1)
    for i in range(4):
        for j in range(4):
            p = L ** (rot[i] + rot[j])
            K[idx[i], idx[j]] = (b * bend[i][j] + g * geo[i][j]) * p


@njit(cache=True)
def deformation_rates_of(r, zl, v):
    """Rates of the local deformations: extension ``r . v`` and end slopes ``v3 - zl . v``, ``v6 - zl . v``."""
    du = 0.0
    dt1 = v[2]
    dt2 = v[5]
    for k in range(6):
        du += r[k] * v[k]
        dt1 -= zl[k] * v[k]
        dt2 -= zl[k] * v[k]
    return du, dt1, dt2


@njit(cache=True)
def element_terms(q, v, a, sec, Mbar, formulation, alpha, beta, want, c_a, c_v, c_k, f_int, f_in, f_d, blk):
    """Internal, inertia and damping forces of one element, and its Newton block.

    consistent: ``f = N r + M1 (e3 - z/l) + M2 (e6 - z/l)``,
    ``K = B^T D B + N z z^T / l + (M1 + M2)(r z^T + z r^T) / l^2``;
    inertia from :mod:`.beam_inertia` (the mass only when needed).
    thesis: ``f = Q^T K_bar d_bar`` (2.39-2.40), ``K_T = Q^T K_bar Q`` (2.57), ``f_in = M a``.
    Damping (2.45): ``alpha M v + beta B^T D0 B v`` (deformation rates only).
    With ``want`` the block ``c_a M + c_k K_T + c_v (alpha M + beta B^T D0 B)`` is written
    to ``blk``.  The derivatives of the inertia force with respect to the velocities and
    positions (gyroscopic terms) are left out of the block: relative to ``c_a M`` they
    are of order ``omega h`` and ``(omega h)^2``, so Newton still contracts by about
    ``omega h`` per iteration.
    """
    _element_terms(q, v, a, sec, Mbar, formulation, alpha, beta, want, c_a, c_v, c_k, f_int, f_in, f_d, blk,
                   np.empty(6), np.empty(6), np.empty((6, 6)), np.empty((6, 6)))


@njit(cache=True)
def _element_terms(q, v, a, sec, Mbar, formulation, alpha, beta, want, c_a, c_v, c_k, f_int, f_in, f_d, blk,
                   r, zl, M, K):
    """:func:`element_terms` with work arrays ``r, zl`` (6) and ``M, K`` (6, 6) supplied by
    the caller (the batched loop allocates them once, not per element and iteration)."""
    L, EA, EI, beta0, phi = sec[0], sec[1], sec[2], sec[3], sec[6]
    kd, ko = bending_coefficients(phi)
    kin = kinematics(q, L, beta0, r, zl)
    c, s, l, u, t1, t2 = kin
    need_mass = want or alpha > 0.0
    if formulation == THESIS:
        Q = np.empty((6, 6))
        dQ = np.empty((6, 6))
        _rotation(c, s, Q, dQ)
        Kb = np.empty((6, 6))
        _thesis_stiffness(EA, EI, L, phi, EA * (u - sec[7] * L) / L, Kb)  # T_s from (A.17)
        d = np.zeros(6)  # deformations beyond the free ones (a free curvature's end slopes -+ kappa0 L / 2)
        d[2], d[3], d[5] = t1 + 0.5 * sec[8] * L, u - sec[7] * L, t2 - 0.5 * sec[8] * L
        fl = Kb @ d
        M[:, :] = Q.T @ Mbar @ Q
        for i in range(6):
            fi = 0.0
            fa = 0.0
            for k in range(6):
                fi += Q[k, i] * fl[k]
                fa += M[i, k] * a[k]
            f_int[i] = fi
            f_in[i] = fa
        if want:
            K[:, :] = Q.T @ Kb @ Q
    else:
        N, M1, M2, _eps = local_forces(sec, u, t1, t2)
        for i in range(6):
            f_int[i] = N * r[i] - (M1 + M2) * zl[i]
        f_int[2] += M1
        f_int[5] += M2
        inertia_force(v, a, sec, kin, r, zl, f_in)
        if need_mass:
            exact_mass(sec, kin, r, zl, M)
        if want:
            A, B, w = stretch_coefficients(phi)
            a2 = 2.0 * A
            g1 = (a2 * t1 + B * t2) / w
            g2 = (a2 * t2 + B * t1) / w
            # B^T D B with the rows of B: r (axial), e3 - zl, e6 - zl, and D symmetric
            d00, d01, d02 = EA / L, EA * g1, EA * g2
            d11 = kd * EI / L + a2 * N * L / w + EA * L * g1 * g1
            d22 = kd * EI / L + a2 * N * L / w + EA * L * g2 * g2
            d12 = ko * EI / L + B * N * L / w + EA * L * g1 * g2
            for j in range(6):
                b1j = (1.0 if j == 2 else 0.0) - zl[j]
                b2j = (1.0 if j == 5 else 0.0) - zl[j]
                x0 = d00 * r[j] + d01 * b1j + d02 * b2j
                x1 = d01 * r[j] + d11 * b1j + d12 * b2j
                x2 = d02 * r[j] + d12 * b1j + d22 * b2j
                for i in range(6):
                    b1i = (1.0 if i == 2 else 0.0) - zl[i]
                    b2i = (1.0 if i == 5 else 0.0) - zl[i]
                    K[i, j] = r[i] * x0 + b1i * x1 + b2i * x2
            fz = N / l
            frz = (M1 + M2) / (l * l)
            for i in range(6):
                zi = zl[i] * l
                for j in range(6):
                    zj = zl[j] * l
                    K[i, j] += fz * zi * zj + frz * (r[i] * zj + zi * r[j])
    # ---- damping (2.45): beta B^T D0 B v on the deformation rates, alpha M v
    for i in range(6):
        f_d[i] = 0.0
    if beta > 0.0:
        du, dt1, dt2 = deformation_rates_of(r, zl, v)
        Nd = beta * EA / L * du
        M1d = beta * EI / L * (kd * dt1 + ko * dt2)
        M2d = beta * EI / L * (ko * dt1 + kd * dt2)
        for i in range(6):
            f_d[i] += Nd * r[i] - (M1d + M2d) * zl[i]
        f_d[2] += M1d
        f_d[5] += M2d
    if alpha > 0.0:
        for i in range(6):
            acc = 0.0
            for k in range(6):
                acc += M[i, k] * v[k]
            f_d[i] += alpha * acc
    if want:
        # B^T D0 B from the rows of B: r/1 (axial), e3 - zl, e6 - zl
        ka = EA / L
        kb = EI / L
        for i in range(6):
            b1i = (1.0 if i == 2 else 0.0) - zl[i]
            b2i = (1.0 if i == 5 else 0.0) - zl[i]
            for j in range(6):
                b1j = (1.0 if j == 2 else 0.0) - zl[j]
                b2j = (1.0 if j == 5 else 0.0) - zl[j]
                cd = 0.0  # (without stiffness damping the block needs no B^T D0 B)
                if beta > 0.0:
                    cd = ka * r[i] * r[j] + kb * (kd * b1i * b1j + ko * b1i * b2j + ko * b2i * b1j + kd * b2i * b2j)
                blk[i, j] = c_a * M[i, j] + c_k * K[i, j] + c_v * (alpha * M[i, j] + beta * cd)


# ----------------------------------------------------------------------------- batched
@njit(cache=True)
def assemble_beams(q, v, a, dofs, secs, Mbars, formulation, alpha, beta, want, c_a, c_v, c_k,
                   internal, inertial, damping, blocks):
    """Add the forces of every element to the global vectors; fill the element blocks."""
    E = dofs.shape[0]
    work = local_array(8, 6)  # the element's q, v, a, its three forces and the kinematics' r, zl
    qe, ve, ae, fi, fm, fd, r, zl = work[0], work[1], work[2], work[3], work[4], work[5], work[6], work[7]
    M, K = local_array(6, 6), local_array(6, 6)
    for e in range(E):
        for k in range(6):
            d = dofs[e, k]
            qe[k] = q[d]
            ve[k] = v[d]
            ae[k] = a[d]
        _element_terms(qe, ve, ae, secs[e], Mbars[e], formulation, alpha, beta, want, c_a, c_v, c_k, fi, fm, fd,
                       blocks[e], r, zl, M, K)
        scatter_forces(dofs[e], dofs.shape[1], fi, fm, fd, internal, inertial, damping)


@njit(cache=True)
def scatter_forces(dofs, count, f_int, f_in, f_d, internal, inertial, damping):
    """Add an element's internal, inertia and damping forces on its first ``count`` dofs
    ``dofs`` to the global vectors."""
    for k in range(count):
        d = dofs[k]
        internal[d] += f_int[k]
        inertial[d] += f_in[k]
        damping[d] += f_d[k]


@njit(cache=True)
def deformations(q, dofs, secs):
    """(E, 9) per element: c, s, l, u, tb1, tb2 and N, M1, M2 of the consistent form."""
    E = dofs.shape[0]
    out = np.empty((E, 9))
    qe = np.empty(6)
    r = np.empty(6)
    zl = np.empty(6)
    for e in range(E):
        for k in range(6):
            qe[k] = q[dofs[e, k]]
        c, s, l, u, t1, t2 = kinematics(qe, secs[e, 0], secs[e, 3], r, zl)
        N, M1, M2, _eps = local_forces(secs[e], u, t1, t2)
        out[e, 0], out[e, 1], out[e, 2], out[e, 3], out[e, 4], out[e, 5] = c, s, l, u, t1, t2
        out[e, 6], out[e, 7], out[e, 8] = N, M1, M2
    return out


@njit(cache=True)
def stacked_deformations(Q, dofs, secs):
    """(K, E, 9): :func:`deformations` of each state of ``Q`` (K, dofs), in one call (the frames
    of a run of steps: :mod:`solver.results.frame_block`)."""
    out = np.empty((Q.shape[0], dofs.shape[0], 9))
    for k in range(Q.shape[0]):
        out[k] = deformations(Q[k], dofs, secs)
    return out


@njit(cache=True)
def strain_energies(q, dofs, secs, formulation):
    """Strain energy of every element, J."""
    d = deformations(q, dofs, secs)
    out = np.empty(d.shape[0])
    for e in range(d.shape[0]):
        out[e] = strain_energy_of(secs[e], d[e, 3], d[e, 4], d[e, 5], formulation)
    return out


@njit(cache=True)
def element_mass(qe, sec, Mbar, formulation, r, zl, Q, dQ, co, M):
    """Mass matrix ``M`` (6, 6) of one element in configuration ``qe``: ``Q^T M_bar Q`` (2.32)
    for the thesis form, the exact mass of :func:`.beam_inertia.exact_mass` for the consistent
    one; ``r, zl`` (6), ``Q, dQ`` (6, 6) and ``co`` (22, 6) are work arrays."""
    kin = kinematics(qe, sec[0], sec[3], r, zl)
    if formulation == THESIS:
        _rotation(kin[0], kin[1], Q, dQ)
        M[:, :] = Q.T @ Mbar @ Q
    else:
        exact_mass_into(sec, kin, r, zl, M, co)


@njit(cache=True)
def log_magnitude(x, acc, count):
    """``(acc + log |x|, count + 1)``, or ``(acc, count)`` for ``x = 0``: a term of the geometric
    mean of the nonzero magnitudes (the scale of the Newton matrix's constraint rows)."""
    d = abs(x)
    if d > 0.0:
        return acc + np.log(d), count + 1
    return acc, count


@njit(cache=True)
def add_element_masses(q, dofs, secs, Mbars, formulation, pos, out):
    """Add the mass matrix of every element in configuration ``q`` (:func:`element_mass`), entry
    ``(e, i, j)`` to ``out[pos[36 e + 6 i + j]]`` (skipped where -1), in element order; returns
    the sum of ``log |M_ii|`` over the nonzero diagonal entries and their count
    (:func:`log_magnitude`)."""
    qe = np.empty(6)
    r = np.empty(6)
    zl = np.empty(6)
    Q = np.empty((6, 6))
    dQ = np.empty((6, 6))
    M = np.empty((6, 6))
    co = np.empty((22, 6))
    acc = 0.0
    count = np.int64(0)  # not the literal 0: log_magnitude compiles once (numba types a call eagerly)
    k = 0
    for e in range(dofs.shape[0]):
        for i in range(6):
            qe[i] = q[dofs[e, i]]
        element_mass(qe, secs[e], Mbars[e], formulation, r, zl, Q, dQ, co, M)
        for i in range(6):
            acc, count = log_magnitude(M[i, i], acc, count)
        for i in range(6):
            for j in range(6):
                p = pos[k]
                if p >= 0:
                    out[p] += M[i, j]
                k += 1
    return acc, count


@njit(cache=True)
def mass_matrices(q, dofs, secs, Mbars, formulation):
    """Element mass matrices in configuration q, (E, 6, 6) (:func:`element_mass`)."""
    E = dofs.shape[0]
    out = np.zeros(E * 36)
    add_element_masses(q, dofs, secs, Mbars, formulation, np.arange(E * 36), out)
    return out.reshape((E, 6, 6))


@njit(cache=True)
def deformation_rate_power(q, v, dofs, secs):
    """``sum qdot^T B^T D0 B qdot`` over the elements (the beta part of damping power), W/s."""
    E = dofs.shape[0]
    qe = np.empty(6)
    ve = np.empty(6)
    r = np.empty(6)
    zl = np.empty(6)
    total = 0.0
    for e in range(E):
        for k in range(6):
            qe[k] = q[dofs[e, k]]
            ve[k] = v[dofs[e, k]]
        L, EA, EI, beta0 = secs[e, 0], secs[e, 1], secs[e, 2], secs[e, 3]
        kd, ko = bending_coefficients(secs[e, 6])
        _c, _s, _l, _u, _t1, _t2 = kinematics(qe, L, beta0, r, zl)
        du, dt1, dt2 = deformation_rates_of(r, zl, ve)
        total += EA / L * du * du + EI / L * (kd * dt1 * dt1 + 2.0 * ko * dt1 * dt2 + kd * dt2 * dt2)
    return total
