"""A state's energies and powers in one compiled pass, for a run whose only contacts are dry circle
pairs (:mod:`.circle_pairs`): what the energy guard (a spurious root of the Newmark equations),
the ledger and the frames read at every step end, kinetic energy T = ½ q̇ᵀ M q̇ (eq. 2.31) with the
elements' T and strain energy U (eq. 2.16) from :func:`~solver.fem.beam_energy.beam_energies`, the
gravitational potential from the sketched configuration, the drivers' power ``-λ_drv · q̇_drv`` and
the pairs' friction power, damping power and stored energy (seed ``001_…``, §§2-3), in place of
:meth:`~solver.system.assembly.Assembly.energies` and four Python sums, to the last bit (the same
operations in the same order: the sums of :mod:`solver.system.state_energies`)."""
from __future__ import annotations

import numpy as np

from ..fem.beam_energy import beam_energies
from ..jit import njit
from ..system.assembly import Assembly
from ..system.state_energies import gravity_potential, lumped_kinetic
from .circle_pairs import circle_energy_terms


def mechanical_args(asm: Assembly) -> tuple:
    """The arguments of :func:`state_terms` after ``(q, v, lam)`` that the system fixes (no modal
    links or free strains: the elements' sections stay as they are), the last one the elements'
    strain energies (E,), J, that each call fills."""
    s = asm.sys
    return (s.q0, s.mass_diag, s.gravity, np.array([d.row for d in s.drivers], dtype=np.int64),
            np.array([d.dof for d in s.drivers], dtype=np.int64), s.elem_dofs, asm.secs, asm.Mbar, asm.form,
            np.empty(s.beams.count))


@njit(cache=True)
def state_terms(q, v, lam, q0, mass_diag, gravity, driver_rows, driver_dofs, elem_dofs, secs, Mbars, form, U,
                dofs, widths, ends, slots, geometry, law, p, kelvin, damping, friction, fp, closed, delta_dot_0,
                trial_rate, unloading):
    """``(T, V_g, P_drv, (P_friction, P_contact, V_contact))`` at ``(q, v, lam)`` (J, W) and each
    element's strain energy into ``U``: :meth:`Assembly.energies`' kinetic and potential terms,
    :class:`~solver.results.outputs.OutputBuilder`'s drivers' power and
    :func:`.circle_pairs.circle_energy_terms` of the batch (:func:`.circle_pairs.pack_circle_batch`), whose
    hysteresis laws read the impact velocity ``delta_dot_0`` of a closed pair (``closed`` != 0) and
    ``trial_rate`` of an open one, m/s."""
    kinetic = beam_energies(q, v, elem_dofs, secs, Mbars, form, U) + 0.5 * lumped_kinetic(mass_diag, v) + 0.0
    potential = gravity_potential(gravity, q, q0) + 0.0
    p_drivers = 0.0
    if driver_rows.shape[0] > 0:
        p_drivers = -np.dot(lam[driver_rows], v[driver_dofs])
    rates = np.where(closed != 0, delta_dot_0, trial_rate)
    return kinetic, potential, p_drivers, circle_energy_terms(q, v, dofs, widths, ends, slots, geometry, law, p,
                                                              kelvin, damping, friction, fp, rates, unloading)
