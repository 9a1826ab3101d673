"""A release located and its step taken again in a compiled run of closed steps (:mod:`.closed_steps`).

When the normal force of a closed Lagrange pair turns tensile beyond its resolution at the end of a
step (thesis §4.1, release), the time loop locates the release within the step by linear interpolation
of ``F_n + F_tol`` (:meth:`~solver.contact.lagrange.LagrangeModel.event_time`) and takes the step again
to end there, then opens the pair.  The run that handed the step over (it ends before a step at whose
end a contact rule acts) now also takes that second attempt in the same compiled call, as the loop
would take it (:func:`release_time`, :func:`retake`): the loop, when its own look at the handed step
asks for the same step from the same state, takes that attempt instead of stepping in Python
(:meth:`~.closed_steps.ClosedRows.take_retake`), and judges it by its rules as ever.  The run takes it only
where the loop's look is known to ask for it: every pair closed (no predictor of an open pair), one
pair's release and every other pair keeping its mode, no moving prescribed motion (the step's end moves),
and the handed step's energy screened (:mod:`.energy_screen`: the loop's energy guard lets it pass).
The attempt's arithmetic is the loop's (:func:`~.free_steps.free_step`, :func:`~.closed_steps.step_sizing`:
a new factorisation for the new size), so it is the loop's to the bit.
"""
from __future__ import annotations

import numpy as np

from ..contact.lagrange import OPEN
from ..jit import njit
from ..system.state_energies import state_energies
from .energy_screen import JUMPED, ON, screened
from .free_steps import free_step

#: the columns of the closed run's ``resolution``: the rows' tolerance ``tol_g`` (m), the contact model's nu,
#: the run's shortest step (s; nan: no retake), and out the retake's step (s; nan: none), its Newton
#: corrections and the kinetic, strain and potential energy of its end (J, :func:`retake_energies`)
TOL_G, NU, SHORTEST, RETAKE_STEP, RETAKE_ITERATIONS, RETAKE_KINETIC, RETAKE_STRAIN, RETAKE_POTENTIAL = range(8)

#: the rows of the closed run's ``before`` that receive the retake's end ``q, v, a, a~, lambda`` and
#: contact multipliers (the first five hold each step's start)
RETAKEN = 5


@njit(cache=True)
def release_time(modes, first, props, lam_start, lam_end, t0, t1, tol_g, nu, mass_col):
    """The instant (s) the loop would take the step ``t0 -> t1`` again to end at: the one closed pair whose
    normal force ``F_n`` turned tensile beyond ``F_tol = m tol_g / (nu h^2)`` (its release, 4.1), from
    ``F_n + F_tol`` at the step's start and end (``lam_start``, ``lam_end``, N) interpolated linearly,
    clamped to ``t0 + 0.02 h``; nan where the loop would switch at the step's end instead or there is
    no such pair (the arithmetic of :meth:`~solver.contact.lagrange.LagrangeModel.event_time`)."""
    h = t1 - t0
    found, F_tol = -1, 0.0
    for j in range(modes.shape[0]):
        F_tol = props[j, mass_col] * tol_g / (nu * h * h)
        if modes[j] != OPEN and not lam_end[first[j]] >= -F_tol:
            if found >= 0:
                return np.nan
            found = j
    if found < 0:
        return np.nan
    r = first[found]
    F_tol = props[found, mass_col] * tol_g / (nu * h * h)
    phi_old, phi_new = lam_start[r] + F_tol, lam_end[r] + F_tol
    if not (phi_new < 0.0 and phi_old > 0.0):
        return np.nan
    t_sw = t0 + h * phi_old / (phi_old - phi_new)
    if t_sw >= t1 - 0.02 * h:
        return np.nan
    return max(t_sw, t0 + 0.02 * h)


@njit(cache=True)
def retake(k, n, m, h, nu, c_a, c_v, lam_factor, lam_start, before, resolution, targets, accs, af, pseudo_ratio, modified,
           F_ext, drv_rows, drv_dofs, iterations, powers, states, factor, scale, work, system):
    """Step ``k`` of a closed run (``n`` dofs, ``m`` multipliers) taken again from its start (``before``'s first
    rows, the contact multipliers ``lam_start``) with the step ``h`` (s), ``nu`` and its Newmark coefficients
    (:func:`~.closed_steps.step_sizing`'s, which dropped the factors of another size), its end
    state written to ``before[RETAKEN:]`` and its step and corrections to ``resolution``; the run's state, the
    step's corrections and power and the rows' multipliers left as they were, and the factorisation state
    too if it failed (then nothing is written: the loop takes the step again itself)."""
    q, v, a, ap, lam = (before[0, :n].copy(), before[1, :n].copy(), before[2, :n].copy(), before[3, :n].copy(),
                        before[4, :m].copy())
    lam_c = system[-2]
    kept = (factor.copy(), scale.copy(), iterations[k], powers[k].copy(), lam_c.copy())
    lam_c[:] = lam_start
    try:
        done = _step(k, targets, accs, h, nu, af, c_a, c_v, pseudo_ratio, lam_factor, modified, q, v, a, ap, lam,
                     F_ext, drv_rows, drv_dofs, iterations, powers, states, factor, scale, work, system)
    except Exception:  # noqa: BLE001 -- an element collapsed: the loop meets it again in its own attempt
        done = False
    if done:
        for i, x in enumerate((q, v, a, ap)):
            before[RETAKEN + i, :n] = x
        before[RETAKEN + 4, :m] = lam
        before[RETAKEN + 5, :lam_c.shape[0]] = lam_c
        resolution[RETAKE_STEP], resolution[RETAKE_ITERATIONS] = h, iterations[k]
    else:
        factor[:], scale[:] = kept[0], kept[1]
    iterations[k], powers[k] = kept[2], kept[3]
    lam_c[:] = kept[4]
    return done


@njit(cache=True)
def retake_energies(screen, U, before, n, gravity, system, resolution):
    """The kinetic, strain and potential energy (J) of the retake's end ``before[RETAKEN:]`` (``n`` dofs) into
    ``resolution``, as :func:`~.energy_screen.run_energies` finds a step's (the same compiled
    :func:`~solver.system.state_energies.state_energies`, ``U`` its scratch): the loop's energy guard reads
    them for the retake instead of computing them again (:meth:`~.closed_steps.ClosedRows.ended`)."""
    T, strain, V = state_energies(before[RETAKEN, :n], before[RETAKEN + 1, :n], screen[1], gravity, system[0],
                                  system[4], system[5], system[6], system[3], U)
    resolution[RETAKE_KINETIC], resolution[RETAKE_STRAIN], resolution[RETAKE_POTENTIAL] = T, strain, V


@njit(cache=True)
def _step(k, targets, accs, h, nu, af, c_a, c_v, pseudo_ratio, lam_factor, modified, q, v, a, ap, lam, F_ext, drv_rows,
          drv_dofs, iterations, powers, states, factor, scale, work, system):
    """:func:`~.free_steps.free_step` with its ``system`` arguments as one tuple."""
    return free_step(k, targets, accs, h, nu, af, c_a, c_v, pseudo_ratio, lam_factor, modified, q, v, a, ap, lam,
                     F_ext, drv_rows, drv_dofs, iterations, powers, states, factor, scale, work, *system)


@njit(cache=True)
def lands(modes, screen, k, U, q, v, F_ext, system, h, shortest):
    """Whether the loop's look at step ``k`` of ``h`` (s), handed over with its end ``q, v``, is known to ask
    for a release's retake that the run may take (:func:`release_time` tells whether it does): every pair
    closed, the step longer than the ``shortest`` (s; the loop's retakes stop there; nan where a prescribed
    motion moves, the retake's end having other targets than the step's, or something besides the contacts
    works: :class:`~.closed_steps.ClosedRows`) and its energy not jumped by the run's screen
    (:func:`~.energy_screen.screened`, which is on wherever the run may retake: the loop's energy guard
    lets it pass; the created-energy watch looks at the retake's end, not at this step's)."""
    for j in range(modes.shape[0]):
        if modes[j] == OPEN:
            return False
    if not (shortest == shortest and h > shortest) or screen[0][ON] == 0.0:
        return False
    return screened(screen, k, U, q, v, F_ext, system) != JUMPED
