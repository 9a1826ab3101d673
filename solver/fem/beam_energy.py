"""Kinetic energy of the corotational beam elements without forming their mass matrices.

``1/2 v^T M(q) v`` of :mod:`solver.fem.beam`'s element mass (eq. 2.31): the thesis's constant
mass in the corotated frame, or the consistent form's Gauss-point sum of the velocity of the
centreline and of the section's rotation rate.  One compiled pass over the elements, with their
strain energies (:func:`beam_energies`), used by the energy check of every step.
"""
from __future__ import annotations

import numpy as np
from ..jit import njit

from .beam import THESIS, kinematics, strain_energy_of
from .timoshenko import _GAUSS_W, _GAUSS_X, shapes


@njit(cache=True)
def exact_kinetic_energy(v, sec, kin, r, zl):
    """Kinetic energy of one element of the consistent form, J: ``1/2 sum_g W_g L (rhoA |r_dot|^2
    + rhoI phi_dot^2)`` with the velocity ``r_dot = r1_dot + beta_dot R' w + R w_dot`` and the
    section's rotation rate ``phi_dot`` at the Gauss points (``1/2 v^T M v`` of
    :func:`.beam_inertia.exact_mass`, without forming it).  ``|r_dot|`` is taken in the chord's
    frame, ``R^T r_dot = R^T r1_dot + beta_dot (-w2, w1) + w_dot``, with ``w1 = xi l`` (fewer
    products and no division a Gauss point).  ``kin, r, zl`` as there."""
    c, s, l, u, t1, t2 = kin
    L, rhoA, rhoI, shear = sec[0], sec[4], sec[5], sec[6]
    bd = 0.0
    ld = 0.0
    for k in range(6):
        bd += zl[k] * v[k]
        ld += r[k] * v[k]
    t1d, t2d = v[2] - bd, v[5] - bd
    ux, uy = c * v[0] + s * v[1], c * v[1] - s * v[0]  # the first node's velocity in the chord's frame
    T = 0.0
    for g in range(4):
        xi = _GAUSS_X[g]
        N3, N6, N3p, N6p = shapes(xi, shear, L)
        vx = ux - bd * (N3 * t1 + N6 * t2) + xi * ld
        vy = uy + bd * xi * l + N3 * t1d + N6 * t2d
        phid = bd + N3p * t1d + N6p * t2d
        T += _GAUSS_W[g] * (rhoA * (vx * vx + vy * vy) + rhoI * phid * phid)
    return 0.5 * L * T


@njit(cache=True)
def kinetic_energy_beams(q, v, dofs, secs, Mbars, formulation):
    """Kinetic energy of the elements, ``1/2 sum_e v_e^T M_e(q) v_e`` (eq. 2.31), J, without
    storing their mass matrices (:func:`exact_kinetic_energy` for the consistent form)."""
    return beam_energies(q, v, dofs, secs, Mbars, formulation, np.empty(0))


@njit(cache=True)
def beam_energies(q, v, dofs, secs, Mbars, formulation, U):
    """The elements' kinetic energy (:func:`kinetic_energy_beams`), returned, and, if ``U`` (E) is
    not empty, each element's strain energy (eq. 2.16 / A.5, :func:`~.beam.strain_energy_of`)
    into ``U``, J, in one pass that finds each element's kinematics once: the numbers of
    :func:`~.beam.strain_energies` to the last bit (the energy guard of every step attempt of a
    run with contacts, and the frames)."""
    work = np.empty((5, 6))  # the element's q, v, the kinematics' r, zl and the corotated velocity w
    qe, ve, r, zl, w = work[0], work[1], work[2], work[3], work[4]
    strain = U.shape[0] > 0
    T = 0.0
    for e in range(dofs.shape[0]):
        for k in range(6):
            qe[k] = q[dofs[e, k]]
            ve[k] = v[dofs[e, k]]
        kin = kinematics(qe, secs[e, 0], secs[e, 3], r, zl)
        if formulation == THESIS:
            T += 0.5 * corotated_quadratic(kin[0], kin[1], ve, Mbars[e], w)
        else:
            T += exact_kinetic_energy(ve, secs[e], kin, r, zl)
        if strain:
            U[e] = strain_energy_of(secs[e], kin[3], kin[4], kin[5], formulation)
    return T


@njit(cache=True)
def corotated_quadratic(c, s, ve, Mbar, w):
    """``w^T Mbar w`` with ``w = Q v_e`` (``Q`` of eq. 2.6 for the chord's cosine ``c`` and sine ``s``,
    :func:`~.beam._rotation`), in plain loops (``w`` (6) scratch): numba's matrix products of 6 x 6
    arrays call BLAS and allocate, about 20 us a state of 240 elements."""
    for o in (0, 3):
        w[o] = c * ve[o] + s * ve[o + 1]
        w[o + 1] = c * ve[o + 1] - s * ve[o]
        w[o + 2] = ve[o + 2]
    total = 0.0
    for i in range(6):
        row = 0.0
        for j in range(6):
            row += Mbar[i, j] * w[j]
        total += w[i] * row
    return total
