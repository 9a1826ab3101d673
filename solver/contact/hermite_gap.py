"""The cubic Hermite gap of a compliant pair over a step (:mod:`.compliant`, seed §5): the
polynomial through both ends' gap and rate (per unit of the step's fraction ``s`` in [0, 1]),
its least value, slope and root, from which the loop finds contact starts, maximum compression,
separations and a contact's peak penetration between the ends of a step."""
from __future__ import annotations

import math

from ..jit import njit
from .base import quadratic_root_pair


@njit(cache=True)
def hermite(s, g0: float, r0: float, g1: float, r1: float):
    """The cubic Hermite polynomial at ``s`` in [0, 1] through values g0, g1 and slopes r0, r1
    (per unit of s)."""
    s2, s3 = s * s, s * s * s
    return (2 * s3 - 3 * s2 + 1) * g0 + (s3 - 2 * s2 + s) * r0 + (-2 * s3 + 3 * s2) * g1 + (s3 - s2) * r1


@njit(cache=True)
def hermite_min(g0: float, r0: float, g1: float, r1: float) -> tuple[float, float]:
    """``(s, value)`` of the smallest value of the cubic Hermite polynomial on [0, 1] (at an
    end or where p' = 3 a s² + 2 b s + r0 vanishes, the first of equal values in that order;
    ``a`` of round-off size, a gap that is nearly a parabola over the step, keeps its root near
    ``-r0 / 2b``: :func:`~.base.quadratic_root_pair`)."""
    a, b = 2 * g0 + r0 - 2 * g1 + r1, -3 * g0 - 2 * r0 + 3 * g1 - r1  # p = a s³ + b s² + r0 s + g0
    count, first, second = quadratic_root_pair(3.0 * a, 2.0 * b, r0)
    best_s, best = 0.0, hermite(0.0, g0, r0, g1, r1)
    for i, c in enumerate((1.0, first, second)):
        if i <= count and 0.0 <= c <= 1.0:
            value = hermite(c, g0, r0, g1, r1)
            if value < best:
                best_s, best = c, value
    return best_s, best


@njit(cache=True)
def hermite_slope(s: float, g0: float, r0: float, g1: float, r1: float) -> float:
    """The derivative (per unit of s) of the cubic Hermite polynomial at ``s``."""
    return (6 * s * s - 6 * s) * (g0 - g1) + (3 * s * s - 4 * s + 1) * r0 + (3 * s * s - 2 * s) * r1


@njit(cache=True)
def hermite_root(g0: float, r0: float, g1: float, r1: float) -> float:
    """Where the cubic Hermite polynomial leaves the side of ``g0`` for that of ``g1`` (bisection),
    in [0, 1]: closing (g0 ≥ 0 > g1) where it falls to 0 or below, opening (g0 < 0 ≤ g1) where it
    rises above 0; a touch at the start (g0 = 0) closes at once (compiled: the time loop's contact
    starts and separations and those of :mod:`solver.integration.compliant_steps` alike)."""
    opening = g0 < g1
    lo, hi = 0.0, 1.0
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if (hermite(mid, g0, r0, g1, r1) > 0.0) != opening else (lo, mid)
    return 0.5 * (lo + hi)


@njit(cache=True)
def first_crossing(g0: float, r0: float, g1: float, r1: float, tol: float) -> float:
    """Where an open pair's cubic Hermite gap first reaches ``-tol / 2`` (the fraction of the step,
    within 0.02 ... 0.98, by bisection before its lowest point) when it falls below ``-tol`` (m)
    within the step; -1 when it does not, or an end is not finite (beside a segment's end): a
    contact start stepped over (:meth:`.compliant.CompliantModel.event_time`, and compiled in
    :mod:`solver.integration.compliant_steps`)."""
    if not (math.isfinite(g0) and math.isfinite(r0) and math.isfinite(g1) and math.isfinite(r1)):
        return -1.0
    lowest, value = hermite_min(g0, r0, g1, r1)
    if value >= -tol:
        return -1.0
    lo, hi = 0.0, lowest
    for _ in range(40):  # bisection for the first crossing of -tol/2 before the lowest point
        mid = 0.5 * (lo + hi)
        if hermite(mid, g0, r0, g1, r1) > -0.5 * tol:
            lo = mid
        else:
            hi = mid
    return min(max(hi, 0.02), 0.98)


def gap_ends(before, after, h: float) -> tuple[float, float, float, float]:
    """Gap and rate (per unit of the step) at both ends of a step of ``h`` (s) from a pair's forces
    before and after it (:class:`.pair_forces.PairForces`: penetration δ, m, and v_n, m/s), for the
    Hermite polynomials; the gap is infinite where the point is beside its target (beyond a
    segment's end, a node's face), which no contact can start from or be interpolated across."""
    return -before.delta, h * before.v_n, -after.delta, h * after.v_n


def closing_reach(v_n: float, a_n: float, h: float, tol: float) -> float:
    """How far (m) a pair's gap may close in a step of ``h`` (s) from a state where it closes at
    ``-v_n`` (m/s) with the normal acceleration ``a_n`` (m/s²): twice the Taylor bound
    ``|v_n| h + |a_n| h²/2``, plus the contact tolerance ``tol`` (m).  A pair whose gap is below it
    is live in the step (:meth:`.compliant.CompliantModel.begin_step`; compiled as it is for the
    runs of open steps, :mod:`solver.integration.open_circles`).

    >>> round(closing_reach(-1.0, 0.0, 1e-5, 2e-6), 12)
    2.2e-05
    """
    return 2.0 * (abs(v_n) * h + 0.5 * abs(a_n) * h * h) + tol


def hermite_floor(g0: float, r0: float, g1: float, r1: float) -> float:
    """A lower bound of the cubic Hermite polynomial of :func:`hermite` on [0, 1]: its value
    weights sum to 1 and lie in [0, 1], its slope weights ``s (1 - s)²`` and ``-s² (1 - s)`` within
    4/27 of zero, so no value is below ``min(g0, g1) - 4/27 (|r0| + |r1|)`` (a test with no root
    to find, for compiled code: :mod:`solver.integration.open_circles`).

    >>> hermite_floor(1.0, -0.27, 0.9, 0.0) <= hermite_min(1.0, -0.27, 0.9, 0.0)[1]
    True
    """
    return min(g0, g1) - 4.0 / 27.0 * (abs(r0) + abs(r1))
