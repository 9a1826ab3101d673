"""Inertia of the consistent corotational beam (:mod:`.beam`): its exact mass matrix and,
in closed form, its inertia force.

The points of an element sit at ``r(x) = r1 + R(beta) w(x)``, ``w = [xi l, v(xi)]`` with
``xi = x / L`` and ``v = N3 tb1 + N6 tb2`` (A.9, or the IIE's shapes with shear,
:func:`.timoshenko.shapes`); the section turns by ``beta - beta0 + P3 tb1 + P6 tb2``.  By
Lagrange's equations (2.33) with the exact kinetic energy (A.18) the inertia force is
``int rhoA (dr/dq)^T r_ddot dx + int rhoI (dphi/dq)^T phi_ddot dx``.

In the corotated frame the acceleration of a point is ``R^T a1 + alpha(xi)`` with

    alpha_1 = xi (l_dd - b_d^2 l) - N3 (b_dd tb1 + 2 b_d tb1_d) - N6 (b_dd tb2 + 2 b_d tb2_d)
    alpha_2 = xi (b_dd l + 2 b_d l_d) + N3 (tb1_dd - b_d^2 tb1) + N6 (tb2_dd - b_d^2 tb2)

(``b = beta``, dots as ``_d``), linear in the functions ``1, xi, N3, N6``; the section's
angular acceleration is linear in ``1, P3, P6``.  Every term of the inertia force is
therefore a product of the element's kinematic scalars with one of fifteen integrals of
products of these functions (:data:`INERTIA_INTEGRALS`), which depend only on the
section and are computed once per run (:func:`inertia_integrals`, columns of
:meth:`.beam.BeamSet.sections`).  The integrands are polynomials of degree at most 6, so
the 4-point Gauss rule gives them exactly; :func:`inertia_force` and :func:`exact_mass`
equal the Gauss-point sums over the element to round-off (1e-15), for a sixth of the
arithmetic.
Units: m, kg, s; rhoA in kg/m, rhoI in kg m.
"""
from __future__ import annotations

import numpy as np
from ..jit import local_array, njit

from .timoshenko import _GAUSS_W, _GAUSS_X, shapes

#: the integrals, in this order, from column :data:`FIRST` of the section array: ``rhoA L int_0^1
#: f g dxi`` for the products of ``1, xi, N3, N6`` (``1`` is ``rhoA L`` itself) and ``rhoI L int_0^1
#: f g dxi`` for those of ``1, P3, P6`` that the inertia force needs (``1 . 1`` is ``rhoI L``)
INERTIA_INTEGRALS = ("m", "m_x", "m_xx", "m_3", "m_6", "m_x3", "m_x6", "m_33", "m_36", "m_66",
                     "j", "j_3", "j_6", "j_33", "j_36", "j_66")
#: the first column of the integrals in :meth:`.beam.BeamSet.sections`
FIRST = 9


def inertia_integrals(L: np.ndarray, rhoA: np.ndarray, rhoI: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """The integrals of :data:`INERTIA_INTEGRALS` per element, (E, 16): kg, kg m and kg m^2
    (``m_3`` in kg m, ``m_33`` in kg m^2, ``j_3`` in kg m, ...), by the 4-point Gauss rule
    (exact: the integrands are polynomials of degree <= 6).  They are the entries of the Gram matrices
    of :func:`exact_mass`."""
    xi = _GAUSS_X[None, :]
    wL = _GAUSS_W[None, :] * L[:, None]
    N3, N6, P3, P6 = shapes.py_func(xi, phi[:, None], L[:, None])
    one = np.ones_like(N3)
    xs = one * xi
    trans = [one, xs, xs * xs, N3, N6, xs * N3, xs * N6, N3 * N3, N3 * N6, N6 * N6]
    rot = [one, P3, P6, P3 * P3, P3 * P6, P6 * P6]
    cols = [rhoA * (wL * f).sum(axis=1) for f in trans] + [rhoI * (wL * f).sum(axis=1) for f in rot]
    return np.stack(cols, axis=1)


@njit(cache=True)
def inertia_force(v, a, sec, kin, r, zl, f):
    """Inertia force ``f`` (6) of the exact kinetic energy of one element, N and N m, in closed
    form from the integrals of :func:`inertia_integrals` (``sec``: a row of
    :meth:`.beam.BeamSet.sections`); ``kin, r, zl`` are what :func:`.beam.kinematics`
    returned and filled for the element.

    With ``abar = R^T a1`` and ``alpha = xi A + N3 B + N6 C`` (module docstring) the generalised
    forces on node 1's translation, on beta, on l and on the end slopes are
    ``m a1 + R int alpha``, ``int (abar + alpha) . (-w2, w1) + rhoI phi_dd``, ``int (abar_1 +
    alpha_1) xi`` and ``int (abar_2 + alpha_2) N + rhoI phi_dd P``; ``f`` is their sum over the
    derivatives of ``(r1, beta, l, tb1, tb2)`` with respect to ``q`` (``zl = dbeta/dq``,
    ``r = dl/dq``).
    """
    c, s, l, _u, t1, t2 = kin
    k = FIRST
    m, m_x, m_xx, m_3, m_6 = sec[k], sec[k + 1], sec[k + 2], sec[k + 3], sec[k + 4]
    m_x3, m_x6, m_33, m_36, m_66 = sec[k + 5], sec[k + 6], sec[k + 7], sec[k + 8], sec[k + 9]
    j, j_3, j_6, j_33, j_36, j_66 = sec[k + 10], sec[k + 11], sec[k + 12], sec[k + 13], sec[k + 14], sec[k + 15]
    ddx, ddy = v[3] - v[0], v[4] - v[1]
    adx, ady = a[3] - a[0], a[4] - a[1]
    bd = 0.0
    ld = 0.0
    for i in range(6):
        bd += zl[i] * v[i]
        ld += r[i] * v[i]
    # beta_dd and l_dd of the chord (d = [dx, dy] = l [c, s])
    dd = c * ddx + s * ddy
    bdd = (c * ady - s * adx) / l - 2.0 * bd * dd / l
    ldd = (c * adx + s * ady) + (ddx * ddx + ddy * ddy - dd * dd) / l
    t1d, t2d = v[2] - bd, v[5] - bd
    t1dd, t2dd = a[2] - bdd, a[5] - bdd
    bd2 = bd * bd
    A1, B1, C1 = ldd - bd2 * l, -(bdd * t1 + 2.0 * bd * t1d), -(bdd * t2 + 2.0 * bd * t2d)
    A2, B2, C2 = bdd * l + 2.0 * bd * ld, t1dd - bd2 * t1, t2dd - bd2 * t2
    ab1, ab2 = c * a[0] + s * a[1], c * a[1] - s * a[0]
    # the integrals of alpha, of alpha . xi, alpha_2 N3 and alpha_2 N6 (times rhoA)
    ia1 = A1 * m_x + B1 * m_3 + C1 * m_6
    ia2 = A2 * m_x + B2 * m_3 + C2 * m_6
    ia1x = A1 * m_xx + B1 * m_x3 + C1 * m_x6
    ia2x = A2 * m_xx + B2 * m_x3 + C2 * m_x6
    ia2_3 = A2 * m_x3 + B2 * m_33 + C2 * m_36
    ia2_6 = A2 * m_x6 + B2 * m_36 + C2 * m_66
    ia1_3 = A1 * m_x3 + B1 * m_33 + C1 * m_36
    ia1_6 = A1 * m_x6 + B1 * m_36 + C1 * m_66
    # rotary: int rhoI phi_dd (1, P3, P6)
    jp = j * bdd + j_3 * t1dd + j_6 * t2dd
    jp3 = j_3 * bdd + j_33 * t1dd + j_36 * t2dd
    jp6 = j_6 * bdd + j_36 * t1dd + j_66 * t2dd
    s_x = m * a[0] + c * ia1 - s * ia2
    s_y = m * a[1] + s * ia1 + c * ia2
    # (abar + alpha) . (-w2, w1) with w1 = xi l, w2 = N3 tb1 + N6 tb2
    s_b = -ab1 * (m_3 * t1 + m_6 * t2) + ab2 * l * m_x - (t1 * ia1_3 + t2 * ia1_6) + l * ia2x + jp
    s_r = ab1 * m_x + ia1x
    s_3 = ab2 * m_3 + ia2_3 + jp3
    s_6 = ab2 * m_6 + ia2_6 + jp6
    for i in range(6):
        f[i] = (s_b - s_3 - s_6) * zl[i] + s_r * r[i]
    f[0] += s_x
    f[1] += s_y
    f[2] += s_3
    f[5] += s_6


@njit(cache=True)
def exact_mass(sec, kin, r, zl, M):
    """:func:`exact_mass_into` with its work array on the stack (:func:`solver.jit.local_array`)."""
    exact_mass_into(sec, kin, r, zl, M, local_array(22, 6))


@njit(cache=True)
def exact_mass_into(sec, kin, r, zl, M, co):
    """Mass matrix ``M`` (6, 6) of the exact kinetic energy of one element, kg, kg m, kg m^2:
    ``int rhoA J^T J + rhoI Jphi Jphi^T dx`` with ``J = dr/dq`` and ``Jphi = dphi/dq`` (A.18
    with the interpolation of the module docstring); in the undeformed state the thesis's
    A.25 + A.26.  ``kin, r, zl`` as for :func:`inertia_force`.

    In the corotated frame column ``j`` of ``J`` is ``R^T e_j + zl_j (-w2, w1) + (xi r_j, N3 b1_j
    + N6 b2_j)`` (``e_j`` node 1's translation, ``b1 = e3 - zl``, ``b2 = e6 - zl``): its two
    components are combinations of ``1, xi, N3, N6``, and ``Jphi_j = zl_j + P3 b1_j + P6 b2_j``
    one of ``1, P3, P6``, so ``M_ij`` is a product of their coefficients with the Gram matrices
    of these functions, whose entries are the integrals of :func:`inertia_integrals`.  ``co``
    (22, 6) is a work array (a loop over the elements passes one, not one per element)."""
    c, s, l, _u, t1, t2 = kin
    k = FIRST
    m, m_x, m_xx, m_3, m_6 = sec[k], sec[k + 1], sec[k + 2], sec[k + 3], sec[k + 4]
    m_x3, m_x6, m_33, m_36, m_66 = sec[k + 5], sec[k + 6], sec[k + 7], sec[k + 8], sec[k + 9]
    j0, j_3, j_6, j_33, j_36, j_66 = sec[k + 10], sec[k + 11], sec[k + 12], sec[k + 13], sec[k + 14], sec[k + 15]
    # per column j: the coefficients of J's components and of Jphi, then their Gram products
    co[0, :] = 0.0
    co[4, :] = 0.0
    co[0, 0], co[0, 1], co[4, 0], co[4, 1] = c, s, -s, c
    for j in range(6):
        b1 = (1.0 if j == 2 else 0.0) - zl[j]
        b2 = (1.0 if j == 5 else 0.0) - zl[j]
        u1, ux, u3, u6 = co[0, j], r[j], -zl[j] * t1, -zl[j] * t2
        w1, wx, w3, w6 = co[4, j], l * zl[j], b1, b2
        co[1, j], co[2, j], co[3, j] = ux, u3, u6
        co[5, j], co[6, j], co[7, j] = wx, w3, w6
        co[8, j], co[9, j], co[10, j] = zl[j], b1, b2
        co[11, j] = m * u1 + m_x * ux + m_3 * u3 + m_6 * u6
        co[12, j] = m_x * u1 + m_xx * ux + m_x3 * u3 + m_x6 * u6
        co[13, j] = m_3 * u1 + m_x3 * ux + m_33 * u3 + m_36 * u6
        co[14, j] = m_6 * u1 + m_x6 * ux + m_36 * u3 + m_66 * u6
        co[15, j] = m * w1 + m_x * wx + m_3 * w3 + m_6 * w6
        co[16, j] = m_x * w1 + m_xx * wx + m_x3 * w3 + m_x6 * w6
        co[17, j] = m_3 * w1 + m_x3 * wx + m_33 * w3 + m_36 * w6
        co[18, j] = m_6 * w1 + m_x6 * wx + m_36 * w3 + m_66 * w6
        co[19, j] = j0 * zl[j] + j_3 * b1 + j_6 * b2
        co[20, j] = j_3 * zl[j] + j_33 * b1 + j_36 * b2
        co[21, j] = j_6 * zl[j] + j_36 * b1 + j_66 * b2
    for i in range(6):
        for j in range(i, 6):
            acc = 0.0
            for n in range(11):
                acc += co[n, i] * co[11 + n, j]
            M[i, j] = acc
            M[j, i] = acc
