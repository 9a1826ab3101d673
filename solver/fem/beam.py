"""Corotational planar beam element, vectorised over all elements of a run.

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
    and the full tangent with the rotating-frame terms.  The inertia force is the
    complete Lagrange term of ``T = 1/2 qdot^T M(beta) qdot`` (2.33):
    ``M qddot + Mdot qdot - dT/dq``, the two terms eq. (2.34) drops.

Units: lengths m, forces N, moments N m, EA in N, EI in N m^2, rhoA in kg/m,
rhoI in kg m.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class BeamSet:
    """All beam elements of a run: undeformed geometry and section, shape (E,)."""

    L: np.ndarray  # undeformed length, m
    beta0: np.ndarray  # undeformed chord angle, rad
    EA: np.ndarray
    EI: np.ndarray
    rhoA: np.ndarray
    rhoI: np.ndarray

    @property
    def count(self) -> int:
        return self.L.shape[0]

    def local_mass(self) -> np.ndarray:
        """Consistent local mass, translational (A.25) + rotary (A.26), shape (E, 6, 6)."""
        L, m, r = self.L, self.rhoA, self.rhoI
        E = self.count
        M1 = np.zeros((E, 6, 6))
        t = (m * L / 420.0)[:, None, None]
        base = np.array(
            [
                [140, 0, 0, 70, 0, 0],
                [0, 156, 22, 0, 54, -13],
                [0, 22, 4, 0, 13, -3],
                [70, 0, 0, 140, 0, 0],
                [0, 54, 13, 0, 156, -22],
                [0, -13, -3, 0, -22, 4],
            ],
            dtype=float,
        )
        M1 = t * base[None] * _length_powers(L)
        geo = np.array(
            [
                [0, 0, 0, 0, 0, 0],
                [0, 36, 3, 0, -36, 3],
                [0, 3, 4, 0, -3, -1],
                [0, 0, 0, 0, 0, 0],
                [0, -36, -3, 0, 36, -3],
                [0, 3, -1, 0, -3, 4],
            ],
            dtype=float,
        )
        M2 = (r / (30.0 * L))[:, None, None] * geo[None] * _length_powers(L)
        return M1 + M2

    def local_stiffness(self, T_s: np.ndarray) -> np.ndarray:
        """Local stiffness K1 (A.15) + stress stiffness K2(T_s) (A.16), shape (E, 6, 6)."""
        L, EA, EI = self.L, self.EA, self.EI
        K = np.zeros((self.count, 6, 6))
        a = EA / L
        K[:, 0, 0] = K[:, 3, 3] = a
        K[:, 0, 3] = K[:, 3, 0] = -a
        bend = np.array([[12, 6, -12, 6], [6, 4, -6, 2], [-12, -6, 12, -6], [6, 2, -6, 4]], dtype=float)
        geo = np.array([[36, 3, -36, 3], [3, 4, -3, -1], [-36, -3, 36, -3], [3, -1, -3, 4]], dtype=float)
        idx = np.ix_([1, 2, 4, 5], [1, 2, 4, 5])
        P = _length_powers(L)[:, 1:, 1:][:, [0, 1, 3, 4]][:, :, [0, 1, 3, 4]]
        kb = (EI / L**3)[:, None, None] * bend[None] * P
        kg = (T_s / (30.0 * L))[:, None, None] * geo[None] * P
        K[:, idx[0], idx[1]] = kb + kg
        return K


def _length_powers(L: np.ndarray) -> np.ndarray:
    """L**(i_rot + j_rot): the factor each entry of a beam matrix carries for its rotation dofs."""
    rot = np.array([0, 0, 1, 0, 0, 1])
    return L[:, None, None] ** (rot[:, None] + rot[None, :])[None]


@dataclass
class BeamState:
    """Kinematics of every element at one configuration (all arrays over E)."""

    c: np.ndarray
    s: np.ndarray
    l: np.ndarray
    u: np.ndarray  # extension l - L
    tb1: np.ndarray  # end slopes relative to the chord
    tb2: np.ndarray
    r: np.ndarray  # (E, 6) dl/dq
    zl: np.ndarray  # (E, 6) dbeta/dq


def beam_state(beams: BeamSet, qe: np.ndarray) -> BeamState:
    """Corotational kinematics from element coordinates ``qe`` (E, 6)."""
    dx = qe[:, 3] - qe[:, 0]
    dy = qe[:, 4] - qe[:, 1]
    l = np.hypot(dx, dy)
    c, s = dx / l, dy / l
    L = beams.L
    u = (l * l - L * L) / (l + L)
    # slopes relative to the chord, wrapped (they are small; the rotations are not)
    a1 = qe[:, 2] + beams.beta0
    a2 = qe[:, 5] + beams.beta0
    tb1 = np.arctan2(c * np.sin(a1) - s * np.cos(a1), c * np.cos(a1) + s * np.sin(a1))
    tb2 = np.arctan2(c * np.sin(a2) - s * np.cos(a2), c * np.cos(a2) + s * np.sin(a2))
    zero = np.zeros_like(c)
    r = np.stack([-c, -s, zero, c, s, zero], axis=1)
    zl = np.stack([s, -c, zero, -s, c, zero], axis=1) / l[:, None]
    return BeamState(c, s, l, u, tb1, tb2, r, zl)


def rotation_q(st: BeamState) -> np.ndarray:
    """Element rotation-of-axes matrix Q (eq. 2.6 with A.1), shape (E, 6, 6)."""
    E = st.c.shape[0]
    Q = np.zeros((E, 6, 6))
    for o in (0, 3):
        Q[:, o, o] = st.c
        Q[:, o, o + 1] = st.s
        Q[:, o + 1, o] = -st.s
        Q[:, o + 1, o + 1] = st.c
        Q[:, o + 2, o + 2] = 1.0
    return Q


def rotation_q_derivative(st: BeamState) -> np.ndarray:
    """dQ/dbeta, shape (E, 6, 6)."""
    E = st.c.shape[0]
    dQ = np.zeros((E, 6, 6))
    for o in (0, 3):
        dQ[:, o, o] = -st.s
        dQ[:, o, o + 1] = st.c
        dQ[:, o + 1, o] = -st.c
        dQ[:, o + 1, o + 1] = -st.s
    return dQ


def local_forces(beams: BeamSet, st: BeamState) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Axial force N, end moments M1, M2 and mean axial strain of the consistent form.

    Mean strain ``eps = u/L + (2 tb1^2 - tb1 tb2 + 2 tb2^2)/30``: the uniform
    extension (A.17) plus the mean of ``1/2 (v')^2`` (A.3) for the cubic shape (A.9).
    """
    L = beams.L
    t1, t2 = st.tb1, st.tb2
    eps = st.u / L + (2 * t1 * t1 - t1 * t2 + 2 * t2 * t2) / 30.0
    N = beams.EA * eps
    M1 = beams.EI / L * (4 * t1 + 2 * t2) + N * L / 30.0 * (4 * t1 - t2)
    M2 = beams.EI / L * (2 * t1 + 4 * t2) + N * L / 30.0 * (4 * t2 - t1)
    return N, M1, M2, eps


def strain_energy(beams: BeamSet, st: BeamState, formulation: str) -> np.ndarray:
    """Strain energy per element, J (eq. 2.16 / A.5)."""
    L, t1, t2 = beams.L, st.tb1, st.tb2
    bend = beams.EI / L * (2 * t1 * t1 + 2 * t1 * t2 + 2 * t2 * t2)
    if formulation == "thesis":
        return 0.5 * beams.EA * st.u**2 / L + bend
    _, _, _, eps = local_forces(beams, st)
    return 0.5 * beams.EA * L * eps**2 + bend


def internal_force(beams: BeamSet, st: BeamState, formulation: str, tangent: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """Element internal forces (E, 6) and tangent stiffness (E, 6, 6).

    consistent: ``f = N r + M1 (e3 - z/l) + M2 (e6 - z/l)`` and
    ``K = B^T D B + N z z^T / l + (M1 + M2)(r z^T + z r^T) / l^2``.
    thesis: ``f = Q^T K_bar d_bar`` (2.39-2.40), ``K_T = Q^T K_bar Q`` (2.57).
    Without ``tangent`` the stiffness is not computed (None).
    """
    if formulation == "thesis":
        T_s = beams.EA * st.u / beams.L  # (A.17)
        Kb = beams.local_stiffness(T_s)
        d = np.zeros((beams.count, 6))
        d[:, 2], d[:, 3], d[:, 5] = st.tb1, st.u, st.tb2  # (2.65), origin at node 1
        Q = rotation_q(st)
        f = np.einsum("eji,ejk,ek->ei", Q, Kb, d)
        return f, np.einsum("eji,ejk,ekl->eil", Q, Kb, Q) if tangent else None
    N, M1, M2, _ = local_forces(beams, st)
    E = beams.count
    B = np.empty((E, 3, 6))
    B[:, 0] = st.r
    B[:, 1] = -st.zl
    B[:, 2] = -st.zl
    B[:, 1, 2] += 1.0
    B[:, 2, 5] += 1.0
    f = N[:, None] * B[:, 0] + M1[:, None] * B[:, 1] + M2[:, None] * B[:, 2]
    if not tangent:
        return f, None
    D = local_tangent(beams, st, N)
    K = np.einsum("eai,eab,ebj->eij", B, D, B)
    z = st.zl * st.l[:, None]
    K += (N / st.l)[:, None, None] * z[:, :, None] * z[:, None, :]
    rz = st.r[:, :, None] * z[:, None, :]
    K += ((M1 + M2) / st.l**2)[:, None, None] * (rz + rz.transpose(0, 2, 1))
    return f, K


def local_tangent(beams: BeamSet, st: BeamState, N: np.ndarray) -> np.ndarray:
    """d(N, M1, M2)/d(u, tb1, tb2) of the consistent form, shape (E, 3, 3)."""
    L, EA, EI = beams.L, beams.EA, beams.EI
    t1, t2 = st.tb1, st.tb2
    g1 = (4 * t1 - t2) / 30.0
    g2 = (4 * t2 - t1) / 30.0
    D = np.empty((beams.count, 3, 3))
    D[:, 0, 0] = EA / L
    D[:, 0, 1] = D[:, 1, 0] = EA * g1
    D[:, 0, 2] = D[:, 2, 0] = EA * g2
    D[:, 1, 1] = 4 * EI / L + 4 * N * L / 30.0 + EA * L * g1 * g1
    D[:, 2, 2] = 4 * EI / L + 4 * N * L / 30.0 + EA * L * g2 * g2
    D[:, 1, 2] = D[:, 2, 1] = 2 * EI / L - N * L / 30.0 + EA * L * g1 * g2
    return D


def deformation_rate_matrix(beams: BeamSet, st: BeamState) -> np.ndarray:
    """``B^T D0 B`` with the linear local stiffness D0: the stiffness-proportional Rayleigh
    damping matrix (eq. 2.45) restricted to deformation rates, so rigid motion is not damped."""
    L, EA, EI = beams.L, beams.EA, beams.EI
    E = beams.count
    B = np.empty((E, 3, 6))
    B[:, 0] = st.r
    B[:, 1] = -st.zl
    B[:, 2] = -st.zl
    B[:, 1, 2] += 1.0
    B[:, 2, 5] += 1.0
    D0 = np.zeros((E, 3, 3))
    D0[:, 0, 0] = EA / L
    D0[:, 1, 1] = D0[:, 2, 2] = 4 * EI / L
    D0[:, 1, 2] = D0[:, 2, 1] = 2 * EI / L
    return np.einsum("eai,eab,ebj->eij", B, D0, B)


def inertia(
    Mbar: np.ndarray, st: BeamState, ve: np.ndarray, ae: np.ndarray, formulation: str, derivatives: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Element mass ``M = Q^T M_bar Q`` (2.32), inertia force, and its derivatives.

    Returns ``(M, f_in, C_in, K_in)``: mass (E,6,6), inertia force (E,6),
    d f_in / d qdot (E,6,6) and the leading part of d f_in / d q (E,6,6).
    thesis: ``f_in = M qddot`` (2.34).  consistent:
    ``f_in = M qddot + bdot M_b qdot - 1/2 (qdot^T M_b qdot) dbeta/dq`` with
    ``M_b = dM/dbeta`` and ``bdot = dbeta/dq . qdot``.  Without ``derivatives`` the
    last two are None.
    """
    Q = rotation_q(st)
    M = np.einsum("eji,ejk,ekl->eil", Q, Mbar, Q)
    f = np.einsum("eij,ej->ei", M, ae)
    if formulation == "thesis":
        return (M, f, np.zeros_like(M), np.zeros_like(M)) if derivatives else (M, f, None, None)
    dQ = rotation_q_derivative(st)
    Mb = np.einsum("eji,ejk,ekl->eil", dQ, Mbar, Q)
    Mb = Mb + Mb.transpose(0, 2, 1)
    bdot = np.einsum("ei,ei->e", st.zl, ve)
    Mbv = np.einsum("eij,ej->ei", Mb, ve)
    vMbv = np.einsum("ei,ei->e", ve, Mbv)
    f = f + bdot[:, None] * Mbv - 0.5 * vMbv[:, None] * st.zl
    if not derivatives:
        return M, f, None, None
    C = bdot[:, None, None] * Mb + Mbv[:, :, None] * st.zl[:, None, :] - st.zl[:, :, None] * Mbv[:, None, :]
    Mba = np.einsum("eij,ej->ei", Mb, ae)
    K = Mba[:, :, None] * st.zl[:, None, :]
    return M, f, C, K
