"""The modal link: a floating frame of reference with modal elastic coordinates (compiled).

Coordinates of a link ``p = (R_x, R_y, theta, q_1 .. q_n)``: the frame's origin (the
link's first node in the sketch) and its rotation from the sketched orientation, and
the modal coordinates (m).  A point sits at ``r = R + A(theta) (u0 + S q)`` and its
section turns by ``theta + N_phi Phi q`` (:mod:`.modal_basis`).  In the sketched
orientation ``c`` and ``Sbar`` are rotated to the inertial axes at compile time, so
``A`` below is the rotation by ``theta`` alone.

**Inertia** (Lagrange's equations of the exact kinetic energy; Shabana, *Dynamics of
Multibody Systems*, eqs. 5.81-5.118 in the plane), with ``s = c + Sbar q`` the first
moment of mass, ``J`` the rotation by +90 deg, ``a_q = a + Mqt q``, ``b_q = b - G q``::

    M = [ m I      A J s        A Sbar ]     f_in = M p'' + h
        [ .        I_theta(q)   b_q^T  ]     h_R = -theta'^2 A s + 2 theta' A J Sbar q'
        [ .        .            Mqq    ]     h_theta = 2 theta' a_q . q'
                                             h_q = -2 theta' G q' - theta'^2 a_q

(``I_theta = I0 + 2 a.q + q^T Mqt q``).  **Gravity** is configuration-dependent:
``Q_R = m g``, ``Q_theta = g . A J s``, ``Q_q = Sbar^T A^T g``.  **Elastic force**
``Kqq q``; with *geometric stiffening* each element of the link's mesh adds the
second-order terms of the von Karman strain, the mean axial strain of an element being
``eps = (u2 - u1)/L + d^T Kg1 d / (2 L)`` with ``Kg1`` the unit geometric stiffness
(A.16): the energy ``1/2 EA L eps^2 + 1/2 d^T Kb d`` is that of the project's
consistent corotational element for small rotations in the frame, so an axial force
stiffens (and compression softens) bending as in the beam (Mayo, Dominguez & Shabana
1995).  **Damping**: ``alpha M p' + Cqq q'`` (Rayleigh's mass part on all motion,
``Cqq = beta Kqq`` plus any modal damping ratios, diagonal: per mode).

The Newton block is exact: ``c_a M + c_v (dh/dp' + alpha M + Cqq) + c_k (d(M x)/dp
+ dh/dp + K_T - dQ/dp)`` with ``x = p'' + alpha p'``, so a modal link's configuration-
dependent mass and quadratic velocity forces enter the Newton system with their tangent.

Packed arrays of all modal links of a run (L links, at most ``W`` coordinates and ``Emax``
elements each; :class:`solver.system.modal_links.ModalSet` builds them)::

    dofs  (L, 3 + W)  int    global dofs of p (padding repeats theta's dof)
    ints  (L, 3)      int    coordinates n, elements, stiffening (0/1)
    scal  (L, 4)             m, c_x, c_y, I0
    vec   (L, 4, W)          Sbar_x, Sbar_y, a, b
    mat   (L, 5, W, W)       Mqt, G, Mqq, Kqq, Cqq
    elphi (L, Emax, 6, W)    the mesh dofs (u, v, phi of both nodes) of each element per mode
    elprop(L, Emax, 2)       element length, EA
    grav  (2,)               gravity, m/s^2
    blocks(L, 3 + W, 3 + W)  the Newton blocks written by :func:`assemble_modal`

Units: m, kg, s, N, rad.
"""
from __future__ import annotations

import math

import numpy as np
from ..jit import njit

from .beam import scatter_forces

#: index of each packed array in the tuple the kernels take
DOFS, INTS, SCAL, VEC, MAT, ELPHI, ELPROP, GRAV, BLOCKS = range(9)


@njit(cache=True)
def _frame(p, n, scal, vec):
    """cos and sin of theta, ``A s`` and ``A J s`` (their two components each)."""
    c, sn = math.cos(p[2]), math.sin(p[2])
    s0, s1 = scal[1], scal[2]
    for j in range(n):
        s0 += vec[0, j] * p[3 + j]
        s1 += vec[1, j] * p[3 + j]
    As0, As1 = c * s0 - sn * s1, sn * s0 + c * s1
    return c, sn, As0, As1, -As1, As0


@njit(cache=True)
def mass_matrix(p, n, scal, vec, mat, M):
    """The mass matrix ``M(p)`` (3 + n, 3 + n) of one link into ``M``."""
    c, sn, _As0, _As1, AJs0, AJs1 = _frame(p, n, scal, vec)
    D = 3 + n
    for i in range(D):
        for j in range(D):
            M[i, j] = 0.0
    M[0, 0] = M[1, 1] = scal[0]
    M[0, 2] = M[2, 0] = AJs0
    M[1, 2] = M[2, 1] = AJs1
    I = scal[3]
    for j in range(n):
        qj = p[3 + j]
        I += 2.0 * vec[2, j] * qj
        Gq = 0.0
        for k in range(n):
            I += qj * mat[0, j, k] * p[3 + k]
            Gq += mat[1, j, k] * p[3 + k]
        M[2, 3 + j] = M[3 + j, 2] = vec[3, j] - Gq
        M[0, 3 + j] = M[3 + j, 0] = c * vec[0, j] - sn * vec[1, j]
        M[1, 3 + j] = M[3 + j, 1] = sn * vec[0, j] + c * vec[1, j]
        for k in range(n):
            M[3 + j, 3 + k] = mat[2, j, k]
    M[2, 2] = I


@njit(cache=True)
def elastic_terms(p, n, ne, stiff, mat, elphi, elprop, f, K, want):
    """Elastic force ``f`` (n,) on the modal coordinates and, with ``want``, its tangent
    ``K`` (n, n); returns the strain energy, J (see the module docstring)."""
    U = 0.0
    for i in range(n):
        acc = 0.0
        for j in range(n):
            acc += mat[3, i, j] * p[3 + j]
            if want:
                K[i, j] = mat[3, i, j]
        f[i] = acc
        U += 0.5 * acc * p[3 + i]
    if not stiff:
        return U
    d = np.empty(6)
    gv = np.empty(6)
    Kg = np.zeros((6, 6))
    Ke = np.empty((6, 6))
    fe = np.empty(6)
    idx = (1, 2, 4, 5)
    geo = ((36.0, 3.0, -36.0, 3.0), (3.0, 4.0, -3.0, -1.0), (-36.0, -3.0, 36.0, -3.0), (3.0, -1.0, -3.0, 4.0))
    rot = (0, 1, 0, 1)
    for e in range(ne):
        L, EA = elprop[e, 0], elprop[e, 1]
        for r in range(4):
            for s in range(4):
                Kg[idx[r], idx[s]] = geo[r][s] * L ** (rot[r] + rot[s]) / (30.0 * L)
        for k in range(6):
            acc = 0.0
            for j in range(n):
                acc += elphi[e, k, j] * p[3 + j]
            d[k] = acc
        lin = (d[3] - d[0]) / L
        quad = 0.0
        for k in range(6):
            acc = 0.0
            for m in range(6):
                acc += Kg[k, m] * d[m]
            gv[k] = acc
            quad += d[k] * acc
        eps = lin + 0.5 * quad / L
        U += 0.5 * EA * L * (eps * eps - lin * lin)
        gv[0] -= 1.0
        gv[3] += 1.0
        for k in range(6):
            fe[k] = EA * eps * gv[k]
        fe[0] += EA * lin
        fe[3] -= EA * lin
        for j in range(n):
            acc = 0.0
            for k in range(6):
                acc += elphi[e, k, j] * fe[k]
            f[j] += acc
        if want:
            for k in range(6):
                for m in range(6):
                    Ke[k, m] = EA * (gv[k] * gv[m] / L + eps * Kg[k, m])
            Ke[0, 0] -= EA / L
            Ke[3, 3] -= EA / L
            Ke[0, 3] += EA / L
            Ke[3, 0] += EA / L
            for i in range(n):
                for j in range(n):
                    acc = 0.0
                    for k in range(6):
                        for m in range(6):
                            acc += elphi[e, k, i] * Ke[k, m] * elphi[e, m, j]
                    K[i, j] += acc
    return U


@njit(cache=True)
def link_terms(p, pd, pdd, n, ne, stiff, scal, vec, mat, elphi, elprop, g, alpha, want, c_a, c_v, c_k,
               f_int, f_in, f_d, blk):
    """Internal (elastic minus gravity), inertia and damping forces of one link (3 + n,)
    and, with ``want``, its Newton block ``blk`` (see the module docstring)."""
    D = 3 + n
    M = np.empty((D, D))
    mass_matrix(p, n, scal, vec, mat, M)
    c, sn, As0, As1, AJs0, AJs1 = _frame(p, n, scal, vec)
    w = pd[2]
    # A Sbar and A J Sbar columns, a_q, G q', Mqt q'
    ASb = np.empty((2, n))
    AJSb = np.empty((2, n))
    aq = np.empty(n)
    Gqd = np.empty(n)
    Mqd = np.empty(n)
    for j in range(n):
        ASb[0, j] = c * vec[0, j] - sn * vec[1, j]
        ASb[1, j] = sn * vec[0, j] + c * vec[1, j]
        AJSb[0, j] = -ASb[1, j]
        AJSb[1, j] = ASb[0, j]
        acc = vec[2, j]
        gd = 0.0
        md = 0.0
        for k in range(n):
            acc += mat[0, j, k] * p[3 + k]
            gd += mat[1, j, k] * pd[3 + k]
            md += mat[0, j, k] * pd[3 + k]
        aq[j] = acc
        Gqd[j] = gd
        Mqd[j] = md
    # quadratic velocity terms h
    h = np.zeros(D)
    AJSqd0 = 0.0
    AJSqd1 = 0.0
    aqqd = 0.0
    for j in range(n):
        AJSqd0 += AJSb[0, j] * pd[3 + j]
        AJSqd1 += AJSb[1, j] * pd[3 + j]
        aqqd += aq[j] * pd[3 + j]
    h[0] = -w * w * As0 + 2.0 * w * AJSqd0
    h[1] = -w * w * As1 + 2.0 * w * AJSqd1
    h[2] = 2.0 * w * aqqd
    for j in range(n):
        h[3 + j] = -2.0 * w * Gqd[j] - w * w * aq[j]
    # inertia and damping: M p'' + h, alpha M p' + Cqq q'
    for i in range(D):
        fi = h[i]
        fd = 0.0
        for k in range(D):
            fi += M[i, k] * pdd[k]
            fd += M[i, k] * pd[k]
        f_in[i] = fi
        f_d[i] = alpha * fd
    for i in range(n):
        acc = 0.0
        for j in range(n):
            acc += mat[4, i, j] * pd[3 + j]
        f_d[3 + i] += acc
    # elastic force minus gravity
    fe = np.empty(n)
    Ke = np.empty((n, n))
    elastic_terms(p, n, ne, stiff, mat, elphi, elprop, fe, Ke, want)
    g0, g1 = g[0], g[1]
    m = scal[0]
    f_int[0] = -m * g0
    f_int[1] = -m * g1
    f_int[2] = -(g0 * AJs0 + g1 * AJs1)
    for j in range(n):
        f_int[3 + j] = fe[j] - (ASb[0, j] * g0 + ASb[1, j] * g1)
    if not want:
        return
    # ---- Newton block
    for i in range(D):
        for k in range(D):
            blk[i, k] = (c_a + c_v * alpha) * M[i, k]
    # c_v dh/dp'
    blk[0, 2] += c_v * (-2.0 * w * As0 + 2.0 * AJSqd0)
    blk[1, 2] += c_v * (-2.0 * w * As1 + 2.0 * AJSqd1)
    blk[2, 2] += c_v * 2.0 * aqqd
    for j in range(n):
        blk[0, 3 + j] += c_v * 2.0 * w * AJSb[0, j]
        blk[1, 3 + j] += c_v * 2.0 * w * AJSb[1, j]
        blk[2, 3 + j] += c_v * 2.0 * w * aq[j]
        blk[3 + j, 2] += c_v * (-2.0 * Gqd[j] - 2.0 * w * aq[j])
        for k in range(n):
            blk[3 + j, 3 + k] += c_v * (-2.0 * w * mat[1, j, k] + mat[4, j, k])
    # c_k d(M x)/dp with x = p'' + alpha p'
    x = np.empty(D)
    for i in range(D):
        x[i] = pdd[i] + alpha * pd[i]
    xR0, xR1, xt = x[0], x[1], x[2]
    ASx0 = 0.0
    ASx1 = 0.0
    for j in range(n):
        ASx0 += AJSb[0, j] * x[3 + j]
        ASx1 += AJSb[1, j] * x[3 + j]
    blk[0, 2] += c_k * (-As0 * xt + ASx0)
    blk[1, 2] += c_k * (-As1 * xt + ASx1)
    blk[2, 2] += c_k * -(As0 * xR0 + As1 * xR1)
    for j in range(n):
        Gx = 0.0
        for k in range(n):
            Gx += mat[1, j, k] * x[3 + k]
        col = AJSb[0, j] * xR0 + AJSb[1, j] * xR1
        blk[3 + j, 2] += c_k * col
        blk[0, 3 + j] += c_k * AJSb[0, j] * xt
        blk[1, 3 + j] += c_k * AJSb[1, j] * xt
        blk[2, 3 + j] += c_k * (col + 2.0 * xt * aq[j] + Gx)
        for k in range(n):
            blk[3 + j, 3 + k] += c_k * -mat[1, j, k] * xt
    # c_k dh/dp
    ASqd0 = 0.0
    ASqd1 = 0.0
    for j in range(n):
        ASqd0 += ASb[0, j] * pd[3 + j]
        ASqd1 += ASb[1, j] * pd[3 + j]
    blk[0, 2] += c_k * (-w * w * AJs0 - 2.0 * w * ASqd0)
    blk[1, 2] += c_k * (-w * w * AJs1 - 2.0 * w * ASqd1)
    for j in range(n):
        blk[0, 3 + j] += c_k * -w * w * ASb[0, j]
        blk[1, 3 + j] += c_k * -w * w * ASb[1, j]
        blk[2, 3 + j] += c_k * 2.0 * w * Mqd[j]
        for k in range(n):
            blk[3 + j, 3 + k] += c_k * (-w * w * mat[0, j, k] + Ke[j, k])
    # c_k (-dQ/dp)
    blk[2, 2] += c_k * (g0 * As0 + g1 * As1)
    for j in range(n):
        gA = AJSb[0, j] * g0 + AJSb[1, j] * g1
        blk[2, 3 + j] -= c_k * gA
        blk[3 + j, 2] -= c_k * gA


@njit(cache=True)
def assemble_modal(q, v, a, modal, alpha, want, c_a, c_v, c_k, internal, inertial, damping):
    """Add the forces of every modal link to the global vectors; with ``want`` fill the
    packed Newton blocks ``modal[BLOCKS]``."""
    dofs, ints, scal, vec, mat, elphi, elprop, grav, blocks = modal
    if dofs.shape[0] == 0:  # no modal links: no work arrays (this runs at every residual evaluation)
        return
    W = dofs.shape[1]
    p = np.empty(W)
    pd = np.empty(W)
    pdd = np.empty(W)
    fi = np.empty(W)
    fm = np.empty(W)
    fd = np.empty(W)
    for l in range(dofs.shape[0]):
        n = ints[l, 0]
        D = 3 + n
        for k in range(D):
            d = dofs[l, k]
            p[k] = q[d]
            pd[k] = v[d]
            pdd[k] = a[d]
        link_terms(p[:D], pd[:D], pdd[:D], n, ints[l, 1], ints[l, 2] != 0, scal[l], vec[l], mat[l], elphi[l],
                   elprop[l], grav, alpha, want, c_a, c_v, c_k, fi, fm, fd, blocks[l])
        scatter_forces(dofs[l], D, fi, fm, fd, internal, inertial, damping)


@njit(cache=True)
def modal_gravity(q, modal, out):
    """Add the generalised gravity forces of every modal link to ``out``: ``Q_R = m g``,
    ``Q_theta = g . A J s``, ``Q_q = Sbar^T A^T g`` (N, N m)."""
    dofs, ints, scal, vec, grav = modal[DOFS], modal[INTS], modal[SCAL], modal[VEC], modal[GRAV]
    for l in range(dofs.shape[0]):
        n = ints[l, 0]
        p = np.empty(3 + n)
        for k in range(3 + n):
            p[k] = q[dofs[l, k]]
        c, sn, _As0, _As1, AJs0, AJs1 = _frame(p, n, scal[l], vec[l])
        out[dofs[l, 0]] += scal[l, 0] * grav[0]
        out[dofs[l, 1]] += scal[l, 0] * grav[1]
        out[dofs[l, 2]] += grav[0] * AJs0 + grav[1] * AJs1
        for j in range(n):
            out[dofs[l, 3 + j]] += (c * vec[l, 0, j] - sn * vec[l, 1, j]) * grav[0] + (sn * vec[l, 0, j] + c * vec[l, 1, j]) * grav[1]


@njit(cache=True)
def move_diagonal(modal, diag):
    """Move the diagonal of the packed Newton blocks into ``diag`` (n,): the blocks keep
    their off-diagonal part, so that the diagonal of the Newton matrix (which scales its
    constraint rows) holds the modal links' masses."""
    dofs, ints, blocks = modal[DOFS], modal[INTS], modal[BLOCKS]
    for l in range(dofs.shape[0]):
        for k in range(3 + ints[l, 0]):
            diag[dofs[l, k]] += blocks[l, k, k]
            blocks[l, k, k] = 0.0


@njit(cache=True)
def modal_energies(q, v, q0, modal):
    """``(kinetic, strain, potential of gravity, q'^T Cqq q')`` of all modal links, J and W;
    the potential ``-m g.R - g.A s`` is counted from the sketched configuration ``q0``."""
    dofs, ints, scal, vec, mat, elphi, elprop, grav = modal[:8]
    T = U = V = 0.0
    for l in range(dofs.shape[0]):
        n = ints[l, 0]
        D = 3 + n
        p = np.empty(D)
        pd = np.empty(D)
        for k in range(D):
            p[k] = q[dofs[l, k]]
            pd[k] = v[dofs[l, k]]
        M = np.empty((D, D))
        mass_matrix(p, n, scal[l], vec[l], mat[l], M)
        for i in range(D):
            for j in range(D):
                T += 0.5 * pd[i] * M[i, j] * pd[j]
        f = np.empty(n)
        # want np.bool_(False), not the literal False: elastic_terms compiles once for this call and link_terms'
        U += elastic_terms(p, n, ints[l, 1], ints[l, 2] != 0, mat[l], elphi[l], elprop[l], f, np.empty((n, n)),
                           np.bool_(False))
        _c, _s, As0, As1, _x, _y = _frame(p, n, scal[l], vec[l])
        dx, dy = p[0] - q0[dofs[l, 0]], p[1] - q0[dofs[l, 1]]
        V -= scal[l, 0] * (grav[0] * dx + grav[1] * dy) + grav[0] * (As0 - scal[l, 1]) + grav[1] * (As1 - scal[l, 2])
    return T, U, V, modal_damping_power(v, modal)


@njit(cache=True)
def modal_damping_power(v, modal):
    """``q'^T Cqq q'`` of all modal links at the rates ``v``, W: the power their modal damping
    forces take, ``Cqq = beta Kqq + diag(2 zeta_i omega_i m_i)`` with the links' damping ratios
    ``zeta_i``, their modes' ``omega_i`` (rad/s) and modal masses ``m_i`` (kg): constant."""
    dofs, ints, mat = modal[DOFS], modal[INTS], modal[MAT]
    P = 0.0
    for l in range(dofs.shape[0]):
        n = ints[l, 0]
        for i in range(n):
            for j in range(n):
                P += v[dofs[l, 3 + i]] * mat[l, 4, i, j] * v[dofs[l, 3 + j]]
    return P
