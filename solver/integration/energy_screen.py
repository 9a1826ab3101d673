"""The energy screen of a compiled run of open or closed Lagrange steps: a spurious root looked for inside the run.

After a velocity jump the Newmark equations can offer a spurious root far from the start (the
mark: the mechanical energy grows over one step, :meth:`~solver.results.outputs.OutputBuilder.spurious_growth`).
A run of open or closed steps (:mod:`.open_steps`, :mod:`.closed_steps`) of a model whose contacts
store no energy and where nothing else works (no loads, drivers, free strains, moving supports, modal
links) computes, at each step's end, the kinetic, strain and gravitational potential energy
``E = T + U + V`` (J; eqs. 2.31, 2.16, the arithmetic of
:meth:`~solver.system.assembly.Assembly.energies` summed in another order) and ends the run after
the first step whose energy grew by more than ``ratio (|E_0| + |E_1|)``, less :data:`SLACK` of the
terms' magnitudes: a superset of the steps
:meth:`~solver.results.outputs.OutputBuilder.spurious_candidates` picks, which the run need then not
record.  The time loop looks at that step as before (:meth:`.open_steps.OpenGaps.screen_checked`).
"""
from __future__ import annotations

import numpy as np

from ..fem.beam_energy import beam_energies
from ..jit import njit

#: the screen's allowance for the energies' round-off, as a fraction of the magnitudes of their terms
#: (a sum of a few hundred terms in another order differs by well under 1e-13 of them)
SLACK = 1e-9

#: the columns of a screen's ``marks``: on (1/0), the growth ratio, the energy (J) and the magnitude
#: of its terms (J) at the last step's end
ON, RATIO, ENERGY, SIZE = range(4)


@njit(cache=True)
def mechanical_energy(q, v, q0, gravity, mass_diag, form, dofs, secs, Mbars, U):
    """``T + U + V`` at ``q, v`` (J: the beams' kinetic and strain energy of
    :func:`~solver.fem.beam_energy.beam_energies`, ``U`` (E) its scratch, the lumped masses'
    ``1/2 m v^2`` and the gravitational potential ``-g . (q - q0)``) and ``|T| + sum |U_e| + |V|``."""
    T = beam_energies(q, v, dofs, secs, Mbars, form, U)
    lumped, V = 0.0, 0.0
    for i in range(q.shape[0]):
        lumped += mass_diag[i] * v[i] * v[i]
        V -= gravity[i] * (q[i] - q0[i])
    strain, size = 0.0, 0.0
    for e in range(U.shape[0]):
        strain += U[e]
        size += abs(U[e])
    T += 0.5 * lumped
    return T + strain + V, abs(T) + size + abs(V)


@njit(cache=True)
def energy_jumped(marks, q0, U, q, v, gravity, mass_diag, form, dofs, secs, Mbars):
    """Whether the energy at ``q, v`` (:func:`mechanical_energy`) grew beyond the screen's ratio from
    that of ``marks`` (the last step's end), which it then replaces."""
    E, size = mechanical_energy(q, v, q0, gravity, mass_diag, form, dofs, secs, Mbars, U)
    E0, size0 = marks[ENERGY], marks[SIZE]
    marks[ENERGY], marks[SIZE] = E, size
    return E - E0 > marks[RATIO] * (abs(E) + abs(E0)) - SLACK * (size + size0)


@njit(cache=True)
def screen_start(screen, q, v, gravity, system):
    """The scratch ``U`` of a run's screen (``screen`` = (marks, q0)), the energy at the run's start
    ``q, v`` marked if the screen is on (``system``: the arguments of
    :func:`~.free_steps.free_step` from ``mass_diag`` on)."""
    marks, q0 = screen
    U = np.empty(system[4].shape[0])
    if marks[ON] != 0.0:
        energy_jumped(marks, q0, U, q, v, gravity, system[0], system[3], system[4], system[5], system[6])
    return U


@njit(cache=True)
def screened(screen, U, q, v, gravity, system):
    """Whether ``screen`` (marks, q0) is on and the energy at ``q, v`` jumped (:func:`energy_jumped`)."""
    marks, q0 = screen
    return marks[ON] != 0.0 and energy_jumped(marks, q0, U, q, v, gravity, system[0], system[3], system[4],
                                               system[5], system[6])
