"""The step control of compliant contact while a pair is closed (seed ``001_…txt``, §5): the two
criteria a step's end is judged by and the next step they ask for, as functions of plain scalars,
compiled, so that :meth:`.compliant.CompliantModel.event_time` and the compiled run of compliant
steps (:mod:`solver.integration.compliant_steps`) judge a step with the same arithmetic.

* The local error of the Newmark penetration, ``(h²/12) |J_n (a₁ - a₀)|``, against ε =
  ``contact_accuracy`` times the contact's largest penetration (at least ``contact_tol``).
* The change of the penetration in a step against ``0.7 ε^⅓ max(δ₀, δ₁, δ_c, tol)``, δ_c the
  contact's predicted peak (an increment criterion on the contact's own scale,
  :mod:`.contact_scale`: the trapezoidal work of the force errs by F'' Δδ³/12 a step, and its
  errors in loading and unloading cancel).

A step over :data:`REJECT_RATIO` times either tolerance is taken again, and the next step is
sized to them, ``0.9 h (tol/err)^⅓`` and 0.9 of the step after which the penetration,
extrapolated from its rate and acceleration, changes by the increment's tolerance
(:func:`increment_step`), within ``0.2 h`` … ``2 h``.

>>> pair_criteria(1e-5, 1e3, 2e-6, 1e-6, 2e-6, True, 2e-4, 0.7 * 2e-4 ** (1 / 3), 2e-6, 0.0, 0.1, 0.0)[1] > REJECT_RATIO
True
"""
from __future__ import annotations

import math

from ..jit import njit

#: Newmark's local error of the penetration, (ν - 1/6) h² |Δa| with the trapezoidal rule's ν = 1/4
ERROR_CONSTANT = 1.0 / 12.0
#: a step whose error exceeds this multiple of the tolerance is taken again
REJECT_RATIO = 1.5
#: the order of the error in the step: the next step is ``h (tol/err)^(1/ORDER)`` (passed to
#: :func:`next_step` as an argument: a power of a compiled constant exponent is not the C library's
#: ``pow``, which the step sizes of the runs so far were computed with)
ORDER = 3.0


@njit(cache=True)
def increment_step(rate, acceleration, target):
    """The shortest step h (s) after which the penetration, moving at ``rate`` (m/s) with
    ``acceleration`` (m/s²), has changed by ``target`` (m): the smallest h > 0 with
    |rate h + acceleration h²/2| = target (inf where it never does)."""
    if rate < 0.0:
        rate, acceleration = -rate, -acceleration
    if acceleration >= 0.0:
        root = math.sqrt(rate * rate + 2.0 * acceleration * target)
        return 2.0 * target / (rate + root) if rate + root > 0.0 else math.inf
    slowing = -acceleration
    if rate * rate >= 2.0 * slowing * target:  # reaches the target before it turns
        return 2.0 * target / (rate + math.sqrt(rate * rate - 2.0 * slowing * target))
    return (rate + math.sqrt(rate * rate + 2.0 * slowing * target)) / slowing  # turns, then comes back past


@njit(cache=True)
def pair_criteria(h, a_n_change, depth, depth_before, peak, closed, accuracy, increment, tol, scale, rate,
                  acceleration):
    """``(error, change, h_change)`` of one pair over a step of ``h`` (s): the Newmark error of the
    penetration from the change ``a_n_change`` (m/s²) of its normal acceleration over the step,
    against ``accuracy`` times the largest of the contact's ``peak``, the penetration ``depth`` at the
    step's end and ``tol`` (m); and, for a pair ``closed`` at the step's start and penetrated at its
    end, the change from ``depth_before`` against ``increment`` times the largest of the two
    penetrations, ``tol`` and the contact's predicted peak ``scale`` (m), with the next step
    ``h_change`` (s) by :func:`increment_step` from the penetration's ``rate`` (m/s) and
    ``acceleration`` (m/s²) at the step's end; 0 (and inf) otherwise."""
    err = ERROR_CONSTANT * h * h * abs(a_n_change)
    error = err / (accuracy * max(peak, depth, tol))
    change, h_change = 0.0, math.inf
    if closed and depth > 0.0:
        allowed = increment * max(depth, depth_before, tol, scale)
        change = abs(depth - depth_before) / allowed
        h_change = increment_step(rate, acceleration, allowed)
    return error, change, h_change


@njit(cache=True)
def next_step(h, error, change, h_change, order):
    """``(h_next, reject)`` after a step of ``h`` (s) whose largest criteria over their tolerances
    are ``error`` and ``change`` (:func:`pair_criteria`, not both 0), the increment's next step the
    shortest ``h_change`` (s): ``0.9 h error^-⅓`` (``order`` = :data:`ORDER`) and ``0.9 h_change``
    within ``0.2 h`` … ``2 h``, and whether the step is taken again (either over :data:`REJECT_RATIO`)."""
    factor = math.inf
    if error > 0.0:
        factor = error ** -(1.0 / order)
    factor = 0.9 * min(factor, h_change / h)
    return h * min(2.0, max(0.2, factor)), max(error, change) > REJECT_RATIO
