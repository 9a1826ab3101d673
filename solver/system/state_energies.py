"""The kinetic, strain and gravitational potential energy of a state, in one compiled function
that every path calls, so that every path gives the same bits.

``T = 1/2 qdot^T M(q) qdot`` (eq. 2.31: the beams' of :func:`~solver.fem.beam_energy.beam_energies`
and the lumped masses' ``1/2 sum m_i v_i^2``), ``U = sum_e U_e`` (eq. 2.16 / A.5, the elements in
order) and ``V = -g . (q - q0)`` (from the sketched configuration), J, each summed in a plain loop
in a fixed order: numpy's sums (pairwise ``sum``, BLAS ``dot``) have no order a compiled kernel can
be sure to repeat.  :meth:`~solver.system.assembly.Assembly.energies` (the frames, the energy guard,
the created-energy watch), :meth:`~solver.system.assembly.Assembly.stacked_energies` (the frames of
a run of steps), the compiled runs of Lagrange steps (:mod:`solver.integration.energy_screen`) and
the compliant pairs' compiled state terms (:mod:`solver.contact.state_terms`) all call it.
"""
from __future__ import annotations

import numpy as np

from ..fem.beam_energy import beam_energies
from ..jit import njit


@njit(cache=True)
def lumped_kinetic(mass_diag, v):
    """``sum_i (m_i v_i) v_i`` (kg m^2/s^2: twice the lumped masses' kinetic energy, J), in dof order."""
    total = 0.0
    for i in range(v.shape[0]):
        total += mass_diag[i] * v[i] * v[i]
    return total


@njit(cache=True)
def gravity_potential(gravity, q, q0):
    """The gravitational potential ``-g . (q - q0)`` (J; ``gravity`` the weights, N), in dof order."""
    total = 0.0
    for i in range(q.shape[0]):
        total += gravity[i] * (q[i] - q0[i])
    return -total


@njit(cache=True)
def strain_total(U):
    """``sum_e U_e``, J, in element order (0.0 without elements)."""
    total = 0.0
    for e in range(U.shape[0]):
        total += U[e]
    return total


@njit(cache=True)
def state_energies(q, v, q0, gravity, mass_diag, dofs, secs, Mbars, formulation, U):
    """``(T, U, V)`` at ``q, v`` (J) of a system without modal links: the beams' and lumped
    masses' kinetic energy, the elements' strain energy (each into ``U`` (E), :func:`strain_total`)
    and the gravitational potential, each plus 0.0 (a potential of -0.0 without gravity is 0.0, as
    :meth:`~solver.system.assembly.Assembly.potential_energy` adds the modal links' 0.0)."""
    T = beam_energies(q, v, dofs, secs, Mbars, formulation, U) + 0.5 * lumped_kinetic(mass_diag, v)
    return T + 0.0, strain_total(U) + 0.0, gravity_potential(gravity, q, q0) + 0.0


@njit(cache=True)
def stacked_state_energies(Q, V, q0, gravity, mass_diag, dofs, secs, Mbars, formulation, out):
    """:func:`state_energies` of each state of ``Q, V`` (K, dofs) into ``out`` (3, K), J (the
    frames of a run of steps)."""
    U = np.empty(dofs.shape[0])
    for k in range(Q.shape[0]):
        out[0, k], out[1, k], out[2, k] = state_energies(Q[k], V[k], q0, gravity, mass_diag, dofs, secs, Mbars,
                                                         formulation, U)
