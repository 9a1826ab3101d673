"""What the time loop looks at in each step of a run of open steps of dry circle pairs
(:mod:`.open_circles`, issue 28 point 1), compiled: the energy guard
(:meth:`~solver.results.outputs.OutputBuilder.spurious_growth`) and the created-energy watch
(:meth:`~.divergence.DivergenceWatch.created_energy`, with the drivers' work booked to each step) of
:meth:`.open_steps.OpenGaps.checked`, and the frames' contact columns of
:meth:`~solver.results.gathered_frames.GatheredFrames.contact_block`: the arithmetic of the
compiled closed steps (:func:`.compliant_steps.energies`, :func:`.compliant_steps.spurious`,
:func:`.compliant_steps.created`, :func:`.compliant_steps.contact_columns`), the loop's numbers (the
energies summed as every path sums them, :mod:`solver.system.state_energies`).
"""
from __future__ import annotations

import numpy as np

from ..jit import njit
from .compliant_steps import contact_columns, created, energies, pair_values, spurious

#: what :func:`open_looks` found: nothing, a step whose energy jumped, a step the watch flags
SOUND, JUMPED, FLAGGED = 0, 1, 2


@njit(cache=True)
def open_looks(t0, times, Q, V, LAM, q0, v0, lam0, run, works, ledger, work_slot, guarding, watching, mechanical,
               pairs):
    """The steps ending at ``times`` (s; states ``Q, V, LAM`` by rows) of a run from ``(q0, v0, lam0)`` at
    ``t0`` looked at in turn: ``(k, SOUND | JUMPED | FLAGGED)``, ``k`` the first step whose energy jumped
    (with ``guarding``: :func:`.compliant_steps.spurious`) or, with ``watching``, the first but the last
    the watch flags (:func:`.compliant_steps.created` with the ledger ``ledger`` booked to the step: its
    drivers' work ``works[k]`` in slot ``work_slot``); ``run`` the scalars of :mod:`.compliant_steps`
    (the guard's largest energy and the watch's energy in play, updated).  ``pairs`` = (batch, states,
    impact velocities, trial rates, unloading) of :class:`~solver.contact.compliant.CompliantModel`."""
    batch, codes, delta_dot_0, trial_rate, unloading = pairs
    e0, p0, e1, p1 = np.empty(4), np.empty(7), np.empty(4), np.empty(7)
    energies(q0, v0, lam0, mechanical, batch, codes, delta_dot_0, trial_rate, unloading, e0, p0)
    before = t0
    count = times.shape[0]
    for k in range(count):
        energies(Q[k], V[k], LAM[k], mechanical, batch, codes, delta_dot_0, trial_rate, unloading, e1, p1)
        if guarding and spurious(run, times[k] - before, e0, p0, e1, p1):
            return k, JUMPED
        if watching and k < count - 1:
            ledger[work_slot] = works[k]
            if created(run, e1, ledger):
                return k, FLAGGED
        e0[:], p0[:] = e1, p1
        before = times[k]
    return count, SOUND


@njit(cache=True)
def open_contact_rows(Q, V, pairs, acc, impacts, table):
    """The contact columns (keys, pairs) of the frames of the states ``Q, V`` (rows) into ``table``
    (:func:`.compliant_steps.contact_columns`, the impulses ``acc`` since the last frame in the first)."""
    batch, codes, delta_dot_0, trial_rate, unloading = pairs
    C, width = codes.shape[0], batch[0].shape[1]
    pv, Js = np.empty((C, 9)), np.zeros((C, 2, width))
    for i in range(Q.shape[0]):
        pair_values(Q[i], V[i], batch, codes, delta_dot_0, trial_rate, unloading, pv, Js)
        contact_columns(Q[i], pv, codes, acc, impacts, batch, table[i])
