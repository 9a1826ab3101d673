"""The largest normal force of a compliant contact inside a step (:mod:`.compliant`).

A hysteresis law (Lankarani-Nikravesh, Hunt-Crossley, Flores: Flores et al. 2006, eqs. 7-9)
pushes hardest while the pair still approaches, before maximum compression, where its damping
adds to the elastic force; the force sampled at the steps' ends misses that peak by O(h²)
(0.2 % on the clearance slider-crank's first impact at its shipped accuracy).  Where the
force turns from rising to falling within a step, its peak is found along the step's cubic
Hermite gap (:mod:`.hermite_gap`): penetration δ(s), rate δ̇(s) and the law's force there.
"""
from __future__ import annotations

import math

from .hermite_gap import hermite, hermite_slope

#: golden-section iterations: the peak's place within 0.618^GOLDEN_STEPS of the step
GOLDEN_STEPS = 40
GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


def hermite_curvature(s: float, g0: float, r0: float, g1: float, r1: float) -> float:
    """The second derivative (per unit of s²) of the cubic Hermite polynomial at ``s``."""
    a, b = 2 * g0 + r0 - 2 * g1 + r1, -3 * g0 - 2 * r0 + 3 * g1 - r1
    return 6.0 * a * s + 2.0 * b


def force_rate(normal, s: float, ends: tuple[float, float, float, float], h: float) -> float:
    """dF/dt = F_δ δ̇ + F_δ̇ δ̈ (N/s) of the law's state ``normal`` (:class:`.compliant_laws.NormalState`,
    None: open) at the fraction ``s`` of a step of ``h`` (s) with the Hermite gap ``ends``."""
    if normal is None:
        return 0.0
    return -(normal.dF_ddelta * hermite_slope(s, *ends) / h + normal.dF_ddelta_dot * hermite_curvature(s, *ends) / h**2)


def step_force_peak(law, ends: tuple[float, float, float, float], before, after, h: float, delta_dot_0: float,
                    unloading: bool) -> float:
    """The largest normal force (N) of ``law`` (:class:`.compliant_laws.PairLaw`) inside a step of
    ``h`` (s) whose force rises at its start and falls at its end (forces ``before`` and ``after``,
    :class:`.compliant.PairForces`), by golden section along the Hermite gap ``ends``; 0 otherwise."""
    if before.normal is None or not all(math.isfinite(x) for x in ends):
        return 0.0
    if force_rate(before.normal, 0.0, ends, h) <= 0.0 or force_rate(after.normal, 1.0, ends, h) > 0.0:
        return 0.0

    def force(s: float) -> float:
        delta = -hermite(s, *ends)
        rate = -hermite_slope(s, *ends) / h
        return law.normal_state(delta, rate, delta_dot_0, unloading).force if delta > 0.0 else 0.0

    lo, hi = 0.0, 1.0
    for _ in range(GOLDEN_STEPS):
        left, right = hi - GOLDEN * (hi - lo), lo + GOLDEN * (hi - lo)
        lo, hi = (lo, right) if force(left) > force(right) else (left, hi)
    return force(0.5 * (lo + hi))
