"""Compiled scalar kernels of the normal contact force laws (:mod:`.normal_laws`).

One place holds each law's formula: :func:`normal_kernel` evaluates a law, given by its
number in :data:`LAW_IDS`, at one state, and :func:`elastic_kernel` its stored energy.
The vectorised functions of :mod:`.normal_laws` loop over arrays with
:func:`normal_many`; the time loop calls the kernels directly, once per pair and Newton
iteration.  Parameters come packed in the order of the law's
:class:`~solver.contact.law_params.LawSpec`: ``(K,)`` Hooke, ``(K, c_e)`` Kelvin-Voigt,
``(K, n)`` Hertz, ``(K, c_e, n)`` the hysteresis laws, ``(σ, L, Rb, Rj)`` the cylinder
laws.  Checks of the parameters (n ≥ 1, δ̇⁽⁻⁾ > 0, Rj < Rb) are the callers'.
"""
from __future__ import annotations

import math

import numpy as np
from ..jit import njit

#: law numbers of the kernels, by the names of the model file
LAW_IDS = {name: i for i, name in enumerate((
    "hooke", "kelvin_voigt", "hertz", "lankarani_nikravesh", "hunt_crossley", "flores",
    "dubowsky_freudenstein", "goldsmith", "esdu78035"))}
HOOKE, KELVIN_VOIGT, HERTZ, LANKARANI_NIKRAVESH, HUNT_CROSSLEY, FLORES, DUBOWSKY, GOLDSMITH, ESDU = range(9)


@njit(cache=True)
def zeta(law, c_e):
    """ζ of the hysteresis laws F = K δⁿ (1 + ζ δ̇/δ̇⁽⁻⁾): Lankarani-Nikravesh 3(1 - c_e²)/4
    (eqs. 8-9), Hunt-Crossley 3(1 - c_e)/2, Flores et al. 2011 8(1 - c_e)/(5 c_e)."""
    if law == LANKARANI_NIKRAVESH:
        return 0.75 * (1.0 - c_e * c_e)
    if law == HUNT_CROSSLEY:
        return 1.5 * (1.0 - c_e)
    return 1.6 * (1.0 - c_e) / c_e


@njit(cache=True)
def line_scales(law, sigma, length, R_bearing, R_journal):
    """(a, B) of eqs. (10)-(11) written δ = a F [ln(B/F) + 1]: a = σ/L and B = L^b ΔR/(Rb Rj σ),
    b = 3 (Dubowsky-Freudenstein) or 1 (Goldsmith), or B = 4 L ΔR/σ (ESDU-78035)."""
    clearance = R_bearing - R_journal
    if law == ESDU:
        return sigma / length, 4.0 * length * clearance / sigma
    b = 3.0 if law == DUBOWSKY else 1.0
    return sigma / length, length**b * clearance / (R_bearing * R_journal * sigma)


@njit(cache=True)
def line_force(delta, a, B):
    """Invert δ = a F [ln(B/F) + 1] for F, on the branch 0 < F < B where it rises:
    ``(F, dF/dδ, valid)``.

    With y = ln(B/F) the relation is h(y) = y - ln(1 + y) = ln(a B/δ) = s.  h is
    increasing and convex on y > 0 and h(y) ≥ y²/(2(1 + y)), so y₀ = s + √(s² + 2s)
    lies above the root and Newton's iterates decrease monotonically onto it: no
    bracket is lost and no step leaves y > 0, from δ → 0 (y → ∞) to δ → aB (y → 0).
    dF/dδ = 1/(a y).  Beyond δ = aB the relation has no solution: F is held at B with
    dF/dδ = 0 and ``valid`` is False.
    """
    limit = a * B
    if delta >= limit:
        return B, 0.0, False
    s = -math.log(delta / limit)
    y = s + math.sqrt(s * (s + 2.0))
    for _ in range(60):
        step = (y - math.log1p(y) - s) * (1.0 + y) / y
        y -= step
        if abs(step) <= 8.0 * 2.220446049250313e-16 * (1.0 + y):
            return B * math.exp(-y), 1.0 / (a * y), True
    raise RuntimeError("line-contact inversion did not converge")


@njit(cache=True)
def normal_kernel(law, delta, delta_dot, delta_dot_0, p):
    """``(F, ∂F/∂δ, ∂F/∂δ̇, valid, F_el)`` of law number ``law`` at penetration ``delta`` (m),
    rate ``delta_dot`` (m/s, > 0 approaching) and impact velocity ``delta_dot_0`` (m/s).

    Out of contact (δ ≤ 0) every output is 0 and the formula is valid; no law pulls.
    Kelvin-Voigt (eq. 1) loads for δ̇ > 0 and unloads (c_e K) otherwise.
    """
    if delta <= 0.0:
        return 0.0, 0.0, 0.0, True, 0.0
    if law == HOOKE:
        return p[0] * delta, p[0], 0.0, True, p[0] * delta
    if law == KELVIN_VOIGT:
        k = p[0] if delta_dot > 0.0 else p[1] * p[0]
        return k * delta, k, 0.0, True, k * delta
    if law == HERTZ:
        K, n = p[0], p[1]
        return K * delta**n, n * K * delta ** (n - 1.0), 0.0, True, K * delta**n
    if law <= FLORES:
        K, n = p[0], p[2]
        z = zeta(law, p[1])
        elastic = K * delta**n
        bracket = 1.0 + z * delta_dot / delta_dot_0
        if bracket <= 0.0:
            return 0.0, 0.0, 0.0, True, elastic
        return elastic * bracket, n * K * delta ** (n - 1.0) * bracket, elastic * z / delta_dot_0, True, elastic
    a, B = line_scales(law, p[0], p[1], p[2], p[3])
    F, dF, valid = line_force(delta, a, B)
    return F, dF, 0.0, valid, F


@njit(cache=True)
def elastic_kernel(law, delta, delta_dot, p):
    """Energy stored in the law's elastic part at penetration ``delta``, J: V(δ) = ∫₀^δ F_el.

    Hooke K δ²/2; Kelvin-Voigt k δ²/2 with k = K loading (δ̇ > 0) and c_e K unloading;
    Hertz and the hysteresis laws K δⁿ⁺¹/(n + 1); the cylinder laws, with
    δ = a F [ln(B/F) + 1], V = a F² [ln(B/F) + 1/2]/2, continued by B (δ - aB) beyond
    their limit aB, where V(aB) = a B²/4.
    """
    if delta <= 0.0:
        return 0.0
    if law == HOOKE:
        return 0.5 * p[0] * delta * delta
    if law == KELVIN_VOIGT:
        k = p[0] if delta_dot > 0.0 else p[1] * p[0]
        return 0.5 * k * delta * delta
    if law <= FLORES:
        n = p[1] if law == HERTZ else p[2]
        return p[0] * delta ** (n + 1.0) / (n + 1.0)
    a, B = line_scales(law, p[0], p[1], p[2], p[3])
    if delta >= a * B:
        return 0.25 * a * B * B + B * (delta - a * B)
    F = line_force(delta, a, B)[0]
    return 0.5 * a * F * F * (math.log(B / F) + 0.5)


@njit(cache=True)
def normal_many(law, delta, delta_dot, delta_dot_0, p):
    """:func:`normal_kernel` over flat arrays: (5, N) rows F, ∂F/∂δ, ∂F/∂δ̇, valid, F_el."""
    out = np.empty((5, delta.shape[0]))
    for i in range(delta.shape[0]):
        F, dF, dFr, valid, elastic = normal_kernel(law, delta[i], delta_dot[i], delta_dot_0[i], p)
        out[0, i], out[1, i], out[2, i], out[3, i], out[4, i] = F, dF, dFr, 1.0 if valid else 0.0, elastic
    return out


@njit(cache=True)
def elastic_many(law, delta, delta_dot, p):
    """:func:`elastic_kernel` over flat arrays."""
    out = np.empty(delta.shape[0])
    for i in range(delta.shape[0]):
        out[i] = elastic_kernel(law, delta[i], delta_dot[i], p)
    return out
