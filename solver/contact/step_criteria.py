"""The step control of compliant contact while a pair is closed (seed ``001_…txt``, §5): the two
criteria a step's end is judged by and the next step they ask for, as functions of plain scalars,
compiled, so that :meth:`.compliant.CompliantModel.event_time` and the compiled run of compliant
steps (:mod:`solver.integration.compliant_steps`) judge a step with the same arithmetic.

* The local error of the Newmark penetration, ``(h²/12) |J_n (a₁ - a₀)|``, against ε =
  ``contact_accuracy`` times the contact's largest penetration (at least ``contact_tol``).
* The change of the penetration in a step against ``ε^⅓`` times the penetration (an increment
  criterion: near first touch and parting, where F'' of a Hertz law grows without bound, the
  trapezoidal work of the force needs short steps the error estimate does not ask for).

A step over :data:`REJECT_RATIO` times either tolerance is taken again, and the next step is
sized to them, ``h (tol/err)^⅓`` and ``h tol/increment`` (times 0.9), within a factor 0.2 … 2.

>>> pair_criteria(1e-5, 1e3, 2e-6, 1e-6, 2e-6, True, 2e-4, 2e-4 ** (1 / 3), 2e-6)[1] > REJECT_RATIO
True
"""
from __future__ import annotations

from ..jit import njit

#: Newmark's local error of the penetration, (ν - 1/6) h² |Δa| with the trapezoidal rule's ν = 1/4
ERROR_CONSTANT = 1.0 / 12.0
#: a step whose error exceeds this multiple of the tolerance is taken again
REJECT_RATIO = 1.5


@njit(cache=True)
def pair_criteria(h, a_n_change, depth, depth_before, peak, closed, accuracy, increment, tol):
    """``(error, increment)`` of one pair over a step of ``h`` (s), each over its tolerance: the
    Newmark error of the penetration from the change ``a_n_change`` (m/s²) of its normal
    acceleration over the step, against ``accuracy`` times the largest of the contact's ``peak``,
    the penetration ``depth`` at the step's end and ``tol`` (m); and, for a pair ``closed`` at the
    step's start and penetrated at its end, the change from ``depth_before`` against ``increment``
    times the larger penetration (at least ``tol``); 0 otherwise."""
    err = ERROR_CONSTANT * h * h * abs(a_n_change)
    error = err / (accuracy * max(peak, depth, tol))
    change = 0.0
    if closed and depth > 0.0:
        change = abs(depth - depth_before) / (increment * max(depth, depth_before, tol))
    return error, change


#: the orders of the two criteria's errors in the step: the next step is ``h (tol/err)^(1/order)``
#: (passed to :func:`next_step` as an argument: a power of a compiled constant exponent is not
#: the C library's ``pow``, which the step sizes of the runs so far were computed with)
ORDERS = (3.0, 1.0)


@njit(cache=True)
def next_step(h, error, increment, orders):
    """``(h_next, reject)`` after a step of ``h`` (s) whose largest criteria over their tolerances
    are ``error`` and ``increment`` (:func:`pair_criteria`, not both 0): the step they ask for
    next, ``0.9 h error^-⅓`` and ``0.9 h / increment`` (``orders`` = :data:`ORDERS`) within
    ``0.2 h`` … ``2 h``, and whether the step is taken again (either over :data:`REJECT_RATIO`)."""
    factor = 2.0
    if error > 0.0:
        factor = 0.9 * error ** -(1.0 / orders[0])
    if increment > 0.0:
        scaled = 0.9 * increment ** -(1.0 / orders[1])
        factor = min(factor, scaled) if error > 0.0 else scaled
    return h * min(2.0, max(0.2, factor)), max(error, increment) > REJECT_RATIO
