"""The largest normal force of a compliant contact inside a step (:mod:`.compliant`, and compiled
for :mod:`solver.integration.compliant_steps`: both call :func:`force_peak`).

A hysteresis law (Lankarani-Nikravesh, Hunt-Crossley, Flores: Flores et al. 2006, eqs. 7-9)
pushes hardest while the pair still approaches, before maximum compression, where its damping
adds to the elastic force; the force sampled at the steps' ends misses that peak by O(h²)
(0.2 % on the clearance slider-crank's first impact at its shipped accuracy).  Where the
force turns from rising to falling within a step, its peak is found along the step's cubic
Hermite gap (:mod:`.hermite_gap`): penetration δ(s), rate δ̇(s) and the law's force there.
"""
from __future__ import annotations

import math

from ..jit import njit
from .compliant_laws import pair_normal
from .hermite_gap import hermite, hermite_slope

#: golden-section iterations: the peak's place within 0.618^GOLDEN_STEPS of the step
GOLDEN_STEPS = 40
GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


@njit(cache=True)
def hermite_curvature(s, g0, r0, g1, r1):
    """The second derivative (per unit of s²) of the cubic Hermite polynomial at ``s``."""
    a, b = 2 * g0 + r0 - 2 * g1 + r1, -3 * g0 - 2 * r0 + 3 * g1 - r1
    return 6.0 * a * s + 2.0 * b


@njit(cache=True)
def force_rate(dF_ddelta, dF_ddelta_dot, s, ends, h):
    """dF/dt = F_δ δ̇ + F_δ̇ δ̈ (N/s) of a law with the derivatives ``dF_ddelta`` (N/m) and
    ``dF_ddelta_dot`` (N s/m) at the fraction ``s`` of a step of ``h`` (s) with the Hermite gap ``ends``."""
    g0, r0, g1, r1 = ends
    return -(dF_ddelta * hermite_slope(s, g0, r0, g1, r1) / h + dF_ddelta_dot * hermite_curvature(s, g0, r0, g1, r1)
             / (h * h))


@njit(cache=True)
def law_force(law, p, kelvin, damping, s, ends, h, delta_dot_0, unloading):
    """The normal force (N) of normal law number ``law`` (:func:`.compliant_laws.pair_normal`'s
    arguments) at the fraction ``s`` of the step along the Hermite gap ``ends``; 0 where open."""
    g0, r0, g1, r1 = ends
    delta = -hermite(s, g0, r0, g1, r1)
    rate = -hermite_slope(s, g0, r0, g1, r1) / h
    return pair_normal(law, p, kelvin, damping, delta, rate, delta_dot_0, unloading)[0] if delta > 0.0 else 0.0


@njit(cache=True)
def force_peak(law, p, kelvin, damping, ends, h, slopes, delta_dot_0, unloading):
    """The largest normal force (N) of normal law number ``law`` (parameters ``p``, Kelvin-Voigt
    ``kelvin``, damper ``damping`` N s/m) inside a step of ``h`` (s) whose force rises at its start
    and falls at its end (``slopes`` = ∂F/∂δ, ∂F/∂δ̇ at the start, then at the end), by golden
    section along the Hermite gap ``ends``; 0 otherwise."""
    for x in ends:
        if not math.isfinite(x):
            return 0.0
    if force_rate(slopes[0], slopes[1], 0.0, ends, h) <= 0.0 or force_rate(slopes[2], slopes[3], 1.0, ends, h) > 0.0:
        return 0.0
    lo, hi = 0.0, 1.0
    for _ in range(GOLDEN_STEPS):
        left, right = hi - GOLDEN * (hi - lo), lo + GOLDEN * (hi - lo)
        f_left = law_force(law, p, kelvin, damping, left, ends, h, delta_dot_0, unloading)
        f_right = law_force(law, p, kelvin, damping, right, ends, h, delta_dot_0, unloading)
        lo, hi = (lo, right) if f_left > f_right else (left, hi)
    return law_force(law, p, kelvin, damping, 0.5 * (lo + hi), ends, h, delta_dot_0, unloading)


def step_force_peak(law, ends: tuple[float, float, float, float], before, after, h: float, delta_dot_0: float,
                    unloading: bool) -> float:
    """:func:`force_peak` of ``law`` (:class:`.compliant_laws.PairLaw`) over a step from the pair's
    forces ``before`` to ``after`` it (:class:`.pair_forces.PairForces`); 0 where it began open."""
    if before.normal is None:
        return 0.0
    end = (0.0, 0.0) if after.normal is None else (after.normal.dF_ddelta, after.normal.dF_ddelta_dot)
    slopes = (float(before.normal.dF_ddelta), float(before.normal.dF_ddelta_dot), float(end[0]), float(end[1]))
    law_id, p = law._normal
    return force_peak(law_id, p, law.normal == "kelvin_voigt", law.damping, tuple(float(x) for x in ends), float(h),
                      slopes, float(delta_dot_0), bool(unloading))
