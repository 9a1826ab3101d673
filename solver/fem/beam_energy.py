"""Kinetic energy of the corotational beam elements without forming their mass matrices.

``1/2 v^T M(q) v`` of :mod:`solver.fem.beam`'s element mass (eq. 2.31): the thesis's constant
mass in the corotated frame, or for the consistent form the integrals of the squared velocity of the
centreline and rotation rate of the section, quadratic forms with the sections' inertia integrals
(:mod:`.beam_inertia`).  One compiled pass over the elements, with their
strain energies (:func:`beam_energies`), used by the energy check of every step.
"""
from __future__ import annotations

import numpy as np
from ..jit import njit

from .beam import THESIS, kinematics, strain_energy_of
from .beam_inertia import FIRST


@njit(cache=True)
def exact_kinetic_energy(v, sec, kin, r, zl):
    """Kinetic energy of one element of the consistent form, J: ``1/2 int (rhoA |r_dot|^2 + rhoI
    phi_dot^2) dx`` (``1/2 v^T M v`` of :func:`.beam_inertia.exact_mass`, without forming it).  In the
    chord's frame the velocity ``R^T r_dot = R^T r1_dot + beta_dot (-w2, w1) + w_dot`` (``w1 = xi l``,
    ``w2 = N3 tb1 + N6 tb2``) is linear in ``1, xi, N3, N6`` and the section's rotation rate
    ``phi_dot = beta_dot + P3 tb1_dot + P6 tb2_dot`` in ``1, P3, P6``: the integrals of their squares
    are quadratic forms in the coefficients with the Gram matrices of these functions, the section's
    inertia integrals (:data:`.beam_inertia.INERTIA_INTEGRALS`, exact, found once a run) -- the 4-point
    Gauss sums of the velocities to round-off, for a third of the arithmetic.  ``kin, r, zl`` as
    :func:`.beam.kinematics` returns and fills them."""
    c, s, l, u, t1, t2 = kin
    bd = 0.0
    ld = 0.0
    for k in range(6):
        bd += zl[k] * v[k]
        ld += r[k] * v[k]
    t1d, t2d = v[2] - bd, v[5] - bd
    ux, uy = c * v[0] + s * v[1], c * v[1] - s * v[0]  # the first node's velocity in the chord's frame
    axial = gram_form(sec, ux, ld, -bd * t1, -bd * t2)  # along the chord: 1, xi, N3, N6
    lateral = gram_form(sec, uy, bd * l, t1d, t2d)  # across it
    k = FIRST + 10  # the rotary integrals: 1, P3, P6
    j, j_3, j_6, j_33, j_36, j_66 = sec[k], sec[k + 1], sec[k + 2], sec[k + 3], sec[k + 4], sec[k + 5]
    rotary = bd * (j * bd + 2.0 * (j_3 * t1d + j_6 * t2d)) + t1d * (j_33 * t1d + 2.0 * j_36 * t2d) + j_66 * t2d * t2d
    return 0.5 * (axial + lateral + rotary)


@njit(cache=True)
def gram_form(sec, a0, a1, a2, a3):
    """``int rhoA f^2 dx`` (kg m^2/s^2) of ``f = a0 + a1 xi + a2 N3 + a3 N6`` with the section's inertia
    integrals (``sec``: a row of :meth:`.beam.BeamSet.sections`, :data:`.beam_inertia.INERTIA_INTEGRALS`)."""
    k = FIRST
    m, m_x, m_xx, m_3, m_6 = sec[k], sec[k + 1], sec[k + 2], sec[k + 3], sec[k + 4]
    m_x3, m_x6, m_33, m_36, m_66 = sec[k + 5], sec[k + 6], sec[k + 7], sec[k + 8], sec[k + 9]
    return (a0 * (m * a0 + 2.0 * (m_x * a1 + m_3 * a2 + m_6 * a3)) + a1 * (m_xx * a1 + 2.0 * (m_x3 * a2 + m_x6 * a3))
            + a2 * (m_33 * a2 + 2.0 * m_36 * a3) + m_66 * a3 * a3)


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
