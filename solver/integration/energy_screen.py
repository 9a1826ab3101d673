"""The energies of a compiled run of open or closed Lagrange steps, and the looks the time loop takes at them, inside the run.

A run of open or closed steps (:mod:`.open_steps`, :mod:`.closed_steps`) of a model without modal
links whose contacts have no compiled state terms (Lagrange pairs store no energy) writes, at each
step's end, the kinetic, strain and gravitational potential energy (J; eqs. 2.31, 2.16) into
``energies`` (steps, 4; the contact energy 0.0): the numbers of
:meth:`~solver.system.assembly.Assembly.energies`, to the bit (the same compiled
:func:`~solver.system.state_energies.state_energies`), which the energy guard and the created-energy
watch then read instead of the run's recorded states' (:meth:`.open_steps.OpenGaps.screen_checked`,
:meth:`.open_steps.OpenGaps.checked`).  Where nothing but the contacts works (no loads, drivers, free
strains, moving supports) the run also takes two looks itself:

- **the screen**: after a velocity jump the Newmark equations can offer a spurious root far from the
  start (the mark: the mechanical energy ``E = T + U + V`` grows over one step,
  :meth:`~solver.results.outputs.OutputBuilder.spurious_growth`).  The run ends after the first step
  whose energy grew by more than ``ratio (|E_0| + |E_1|)``, less :data:`SLACK` of the terms'
  magnitudes: a superset of the steps
  :meth:`~solver.results.outputs.OutputBuilder.spurious_candidates` picks, at which the guard looks;
- **the watch** of an undamped run: the run ends after the first step at which the created-energy
  watch flags the energy balance (:meth:`~.divergence.DivergenceWatch.created_energy`, its arithmetic
  in its order, :func:`.compliant_steps.created`; the ledger stays as booked while the pairs store
  no energy and nothing works), where the loop switches numerical damping on.

Either way a run need not record its states for these looks: every step but its last passed them.
"""
from __future__ import annotations

import numpy as np

from ..jit import njit
from ..system.state_energies import state_energies
from .compliant_steps import created

#: the screen's allowance for the energies' round-off, as a fraction of the magnitudes of their terms
SLACK = 1e-9

#: the columns of a screen's ``marks``: the screen on (1/0), the growth ratio, the energy (J) and the
#: magnitude of its terms (J) at the last step's end, the watch on (1/0)
ON, RATIO, ENERGY, SIZE, WATCH = range(5)

#: how the looks of :func:`screened` end a run: not, its energy jumped, the watch flags it (the
#: endings of :func:`.open_steps.open_steps` after ``RAN, HANDED = 0, 1``)
GOING, JUMPED, WATCHED = 0, 2, 3


@njit(cache=True)
def run_energies(screen, k, U, q, v, gravity, system):
    """The energies at ``q, v`` into row ``k`` of the ``energies`` of ``screen`` (marks, q0, energies,
    the watch's scalars, ledger): ``T, U, V`` (:func:`~solver.system.state_energies.state_energies`, ``U`` (E)
    its scratch, ``system`` the arguments of :func:`~.free_steps.free_step` from ``mass_diag`` on),
    0.0; the magnitude of their terms ``|T| + sum |U_e| + |V|``, J."""
    q0, energies = screen[1], screen[2]
    T, strain, V = state_energies(q, v, q0, gravity, system[0], system[4], system[5], system[6], system[3], U)
    energies[k, 0], energies[k, 1], energies[k, 2], energies[k, 3] = T, strain, V, 0.0
    size = abs(T) + abs(V)
    for e in range(U.shape[0]):
        size += abs(U[e])
    return size


@njit(cache=True)
def screen_start(screen, q, v, gravity, system):
    """The scratch ``U`` (E) of a run's energies, the energy at the run's start ``q, v`` marked if the
    screen is on (``screen``, ``system`` as :func:`run_energies` has them)."""
    marks, energies = screen[0], screen[2]
    U = np.empty(system[4].shape[0])
    if marks[ON] != 0.0 and energies.shape[0] > 0:
        marks[SIZE] = run_energies(screen, np.int64(0), U, q, v, gravity, system)
        marks[ENERGY] = energies[0, 0] + energies[0, 1] + energies[0, 2]
    return U


@njit(cache=True)
def screened(screen, k, U, q, v, gravity, system):
    """The energies at the end ``q, v`` of step ``k`` into its row of the energies of ``screen`` if
    they have one (:func:`run_energies`), then the run's looks at them: :data:`JUMPED` if the screen is
    on and the energy grew beyond its ratio from that of the last step's end, which it then replaces,
    :data:`WATCHED` if the watch is on and flags them (``screen[3]``, ``screen[4]``: the arguments
    ``run`` and ``ledger`` of :func:`.compliant_steps.created`), else :data:`GOING`."""
    marks, energies = screen[0], screen[2]
    if energies.shape[0] <= k:
        return GOING
    size = run_energies(screen, k, U, q, v, gravity, system)
    e = energies[k]
    if marks[ON] != 0.0:
        E, E0, size0 = e[0] + e[1] + e[2], marks[ENERGY], marks[SIZE]
        marks[ENERGY], marks[SIZE] = E, size
        if E - E0 > marks[RATIO] * (abs(E) + abs(E0)) - SLACK * (size + size0):
            return JUMPED
    if marks[WATCH] != 0.0 and created(screen[3], e, screen[4]):
        return WATCHED
    return GOING
