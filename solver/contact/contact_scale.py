"""A compliant contact's own length scale (issue 28, point 1): the peak penetration δ_c its
approach predicts, read by the step control of :mod:`.compliant` in place of the present
penetration, so that a contact's loading and unloading are stepped on the same scale.

At the instant of touching the pair's relative motion along the normal carries the kinetic
energy ½ m_eff δ̇⁽⁻⁾², with the effective mass m_eff = 1 / (J_n M⁻¹ J_nᵀ) of the pair under
the mechanism's joints (the normal entry of the contact-space inverse inertia D of LAJSS
eq. 5, :func:`.jump.contact_inertia`).  If the contact stored all of it elastically (no damping,
no other force during the contact) it would stop at the δ_c where the law's elastic energy
V(δ_c) = ½ m_eff δ̇⁽⁻⁾² (Flores et al. 2006, eqs. 2-4 integrated from 0 to δ_c); for the Hertz
law V = (2/5) K δ^(5/2), so δ_c = (5 m_eff δ̇⁽⁻⁾² / 4K)^(2/5) (Johnson, Contact Mechanics
§11.4).
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..system.assembly import Assembly
from .jump import contact_inertia

#: bisections of the predicted peak: its relative precision is 2^-BISECTIONS of its bracket
BISECTIONS = 40


def effective_mass(asm: Assembly, q: np.ndarray, t: float, J: np.ndarray) -> float:
    """m_eff = 1 / D_nn (kg) of a pair with Jacobian ``J`` (2, n; rows n, t) at ``(q, t)``:
    inf where the pair cannot move along its normal (held by joints or drivers)."""
    D_nn = contact_inertia(asm, q, t, J)[1][0, 0]
    return 1.0 / D_nn if D_nn > 0.0 and math.isfinite(D_nn) else math.inf


def predicted_peak(energy: Callable[[float], float], m_eff: float, speed: float, start: float) -> float:
    """The penetration δ_c (m) at which the elastic energy ``energy(δ)`` (J, increasing from 0)
    reaches the approach's kinetic energy ½ ``m_eff`` ``speed``² (kg, m/s), bracketed by
    doubling from ``start`` (m, > 0) and found by bisection; 0 when it is not finite."""
    kinetic = 0.5 * m_eff * speed * speed
    if not math.isfinite(kinetic) or kinetic <= 0.0:
        return 0.0
    lo, hi = 0.0, start
    while energy(hi) < kinetic:
        lo, hi = hi, 2.0 * hi
    for _ in range(BISECTIONS):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if energy(mid) < kinetic else (lo, mid)
    return 0.5 * (lo + hi)


def increment_ratio(delta_0: float, delta_1: float, scale: float, increment: float) -> float:
    """The change of the penetration over a step, |δ₁ - δ₀| (m), over its tolerance
    ``increment`` × ``scale`` (m): above 1 the step was too long."""
    return abs(delta_1 - delta_0) / (increment * scale)
