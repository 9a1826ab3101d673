"""Contact starts and separations of dry circle pairs inside the compiled runs of compliant steps
(:mod:`.compliant_steps`, issue 28 point 1; seed ``001_…txt`` §5), with the arithmetic of
:class:`~solver.contact.compliant.CompliantModel`:

* before every attempt, the pairs a step evaluates (``begin_step``: the closed ones and the open ones
  whose gap is within :func:`~solver.contact.hermite_gap.closing_reach`) and the impact velocity each
  open pair would strike with;
* after an accepted step, a pair penetrated at its end that was open at its start begins its contact
  (``_contact_start``: the instant of touching and the approach speed from the cubic Hermite gap, the
  predicted peak of :mod:`solver.contact.contact_scale` with the effective mass 1/D_nn of the pair
  under the joints, LAJSS eq. 5), and a closed pair open at the end separates (``_separation``: its
  peak from the Hermite gap, the instant of parting).

Each start and separation is written as a row of ``events`` (:data:`START`, :data:`SEPARATION`), which
the loop's side logs after the run as the model logs its own
(:meth:`~solver.contact.compliant.CompliantModel.log_start`, ``log_separation``).
"""
from __future__ import annotations

import numpy as np

from ..contact.circle_pairs import circle_pair_state
from ..contact.compliant import MIN_IMPACT_VELOCITY
from ..contact.compliant_laws import pair_normal
from ..contact.contact_scale import band_effective_mass, loading_rate, predicted_peak
from ..contact.hermite_gap import hermite_min, hermite_root, hermite_slope
from ..jit import njit
from .live_pairs import compiled_reach

#: the kinds of an event row: (kind, pair, time, then a start's gap, impact velocity, instant of touching
#: and impact count, or a separation's largest penetration and force, instant of parting and duration)
START, SEPARATION = 1.0, 2.0
#: the state code of a pair that begins its contact (``CONTACT_STATES.index("slide")``)
SLIDE = 1


@njit(cache=True)
def begin_attempt(step, q, v, a, tol, batch, codes, delta_dot_0, trial_rate, live, rates):
    """:meth:`~solver.contact.compliant.CompliantModel.begin_step` for an attempt of ``step`` (s) from
    ``(q, v, a)``: ``live`` the pairs it evaluates, ``trial_rate`` each open pair's impact velocity
    (m/s), ``rates`` the impact velocities the forces read; whether any pair is live."""
    dofs, widths, ends, slots, geometry, law, p, kelvin, damping, friction, fp = batch[:11]
    any_live = False
    for k in range(dofs.shape[0]):
        if codes[k] != 0:
            live[k] = True
            rates[k] = delta_dot_0[k]
            any_live = True
            continue
        pair = dofs[k, :widths[k]]
        gap, _nx, _ny, J, v_n, _v_t, _depth, _normal, _F_t, _dF = circle_pair_state(
            q, v, pair, ends[k], slots[k], geometry[k], law[k], p[k], kelvin[k], damping[k], friction[k], fp[k], 1.0,
            np.bool_(False))  # a bool to numba, not a literal: circle_pair_state compiles once
        w = np.empty(pair.shape[0])
        for i in range(pair.shape[0]):
            w[i] = a[pair[i]]
        live[k] = gap < compiled_reach(v_n, np.dot(J, w)[0], step, tol)  # BLAS, as ContactGeometry.velocity
        trial_rate[k] = max(-v_n, MIN_IMPACT_VELOCITY)
        rates[k] = trial_rate[k]
        any_live = any_live or live[k]
    return any_live


@njit(cache=True)
def contact_start(k, t, h, ends, gap, q, J, pairs, system, inertia, tol, events, run, count_at):
    """Pair ``k`` begins its contact at the end of a step of ``h`` (s) from ``t`` (its Hermite gap
    ``ends``, its gap ``gap`` (m) and Jacobian rows ``J`` at the end ``q``): state, impact velocity,
    count, instant of touching, predicted peak; its event row."""
    batch, codes, delta_dot_0, trial_rate, unloading, peaks, _report, _acc, _props, impacts, scale, touched = pairs[:12]
    codes[k] = SLIDE
    unloading[k] = False
    delta_dot_0[k] = trial_rate[k]
    impacts[k] += 1
    peaks[0, k] = peaks[1, k] = 0.0
    touched[k] = t + h
    finite = np.isfinite(ends[0]) and np.isfinite(ends[1]) and np.isfinite(ends[2]) and np.isfinite(ends[3])
    if finite:  # the instant of touching and the approach speed then, from the Hermite gap
        root = hermite_root(ends[0], ends[1], ends[2], ends[3])
        touched[k] = t + root * ((t + h) - t)
        delta_dot_0[k] = max(-hermite_slope(root, ends[0], ends[1], ends[2], ends[3]) / ((t + h) - t),
                             MIN_IMPACT_VELOCITY)
    law, p, kelvin = batch[5], batch[6], batch[7]
    m_eff = band_effective_mass(q, J, batch[0][k, :batch[1][k]], system, inertia)
    scale[k] = predicted_peak(law[k], p[k], loading_rate(kelvin[k]), m_eff, delta_dot_0[k], tol)
    _event(events, run, count_at, START, k, t + h, gap, delta_dot_0[k], touched[k], float(impacts[k]))


@njit(cache=True)
def separation(k, t, h, ends, pairs, events, run, count_at):
    """Pair ``k`` separates at the end of a step of ``h`` (s) from ``t`` (its Hermite gap ``ends``): its
    peak between the step's ends (the elastic force there), the instant of parting; its event row."""
    batch, codes, delta_dot_0, _trial, unloading, peaks, _report, _acc, _props, _impacts, scale, touched = pairs[:12]
    codes[k] = 0
    scale[k] = 0.0
    unloading[k] = False
    _s, gap = hermite_min(ends[0], ends[1], ends[2], ends[3])
    force = 0.0
    if -gap > peaks[0, k]:
        peaks[0, k] = -gap
        peaks[2, k] = max(peaks[2, k], -gap)
        force = max(force, pair_normal(batch[5][k], batch[6][k], batch[7][k], batch[8][k], -gap, 0.0, delta_dot_0[k],
                                       unloading[k])[0])
    peaks[1, k] = max(peaks[1, k], force)
    peaks[3, k] = max(peaks[3, k], force)
    parted = t + hermite_root(ends[0], ends[1], ends[2], ends[3]) * ((t + h) - t)
    _event(events, run, count_at, SEPARATION, k, t + h, peaks[0, k], peaks[1, k], parted, parted - touched[k])


@njit(cache=True)
def _event(events, run, count_at, kind, k, t, a, b, c, d):
    """Row ``run[count_at]`` of ``events``, counted."""
    i = int(run[count_at])
    events[i, 0], events[i, 1], events[i, 2] = kind, float(k), t
    events[i, 3], events[i, 4], events[i, 5], events[i, 6] = a, b, c, d
    run[count_at] += 1.0
