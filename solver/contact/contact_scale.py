"""A compliant contact's own scale for the step control of :mod:`.compliant` (issue 28, point 1):
the peak penetration δ_c its approach predicts, and the step after which the penetration will
have changed by a given amount.

**The predicted peak.**  At the instant of touching the pair's relative motion along the normal
carries the kinetic energy ½ m_eff δ̇⁽⁻⁾², with the effective mass m_eff = 1 / (J_n M⁻¹ J_nᵀ)
of the pair under the mechanism's joints (the normal entry of the contact-space inverse inertia
D, LAJSS eq. 5, :func:`.jump.contact_inertia`).  Stored elastically it stops the pair at the
δ_c where the law's elastic energy V(δ_c) = ½ m_eff δ̇⁽⁻⁾² (Flores et al. 2006, eqs. 2-11
integrated from 0 to δ_c); for the Hertz law V = (2/5) K δ^(5/2) and δ_c = (5 m_eff δ̇⁽⁻⁾² /
4K)^(2/5) (Johnson, *Contact Mechanics* §11.4).  Damping, friction and the mechanism's other
forces move the real peak (within a factor 0.9 ... 3 on the clearance slider-crank: larger in
the slow contacts the mechanism presses into); it is a scale, not a forecast.

**The increment criterion.**  The change of the penetration in a step is held below
ε^⅓ max(δ₀, δ₁, δ_c, tol) (ε the contact accuracy): on one scale, δ_c, through loading and
unloading, so that the trapezoidal rule's work errors of the two halves, of opposite sign, cancel
(docs/performance.md, *A step control tried and not shipped*), and so that the steps near first
touch and parting are no shorter than in the body of the contact.  The next step is the one
after which the penetration, extrapolated from the present rate and acceleration, has changed by
a fraction of that tolerance (:func:`.step_criteria.increment_step`): a step sized from the last step's ratio
instead lags the rate, too short while the contact loads and too long while it unloads (the
unloading steps then overshoot the tolerance by up to 1.5 and the cancellation fails).
"""
from __future__ import annotations

import math

import numpy as np

from ..jit import njit
from ..system.assembly import Assembly, mass_factorize
from ..system.banded import band_solve
from ..system.constraints import constraint_eval
from .jump import contact_inertia
from .normal_kernels import elastic_kernel

#: the increment criterion's tolerance, of ε^⅓ max(δ₀, δ₁, δ_c, tol): at 0.7 an elastic Hertz
#: impact's rebound is as accurate as with the former criterion (ε^⅓ of the present penetration),
#: in half the steps (docs/performance.md, *The contact's own scale*)
INCREMENT_SHARE = 0.7
#: bisections of the predicted peak: its relative precision is 2^-BISECTIONS of its bracket
BISECTIONS = 40
#: doublings of the bracket at most (from ``tol``: beyond any penetration a law is used at)
DOUBLINGS = 100


def effective_mass(asm: Assembly, q: np.ndarray, t: float, J: np.ndarray) -> float:
    """m_eff = 1 / D_nn (kg) of a pair with Jacobian ``J`` (2, n; rows n, t) at ``(q, t)``:
    inf where the pair cannot move along its normal (held by joints or drivers)."""
    D_nn = contact_inertia(asm, q, t, J)[1][0, 0]
    return 1.0 / D_nn if D_nn > 0.0 and math.isfinite(D_nn) else math.inf


@njit(cache=True)
def predicted_peak(law, p, rate, m_eff, speed, start):
    """The penetration δ_c (m) at which the elastic energy of normal law number ``law`` (parameters
    ``p``; ``rate`` the sign of δ̇ Kelvin-Voigt's energy reads, :func:`.normal_kernels.elastic_kernel`)
    reaches the approach's kinetic energy ½ ``m_eff`` ``speed``² (kg, m/s), bracketed by doubling from
    ``start`` (m, > 0) and found by bisection; 0 where there is none (compiled: the time loop's contact
    starts and those of :mod:`solver.integration.compliant_steps` alike)."""
    kinetic = 0.5 * m_eff * speed * speed
    if not (math.isfinite(kinetic) and kinetic > 0.0):
        return 0.0
    lo, hi = 0.0, start
    bracketed = False
    for _ in range(DOUBLINGS):
        if not elastic_kernel(law, hi, rate, p) < kinetic:
            bracketed = True
            break
        lo, hi = hi, 2.0 * hi
    if not bracketed:
        return 0.0
    for _ in range(BISECTIONS):
        mid = 0.5 * (lo + hi)
        if elastic_kernel(law, mid, rate, p) < kinetic:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def contact_scale(asm: Assembly, law, s, geometry, speed: float, tol: float) -> float:
    """δ_c (m) of a contact that began at state ``s`` (:class:`~solver.system.state.State`)
    with the approach speed ``speed`` (m/s): :func:`predicted_peak` of the elastic energy of
    ``law`` (:class:`.compliant_laws.PairLaw`, loading) for the pair's :func:`effective_mass` in
    ``geometry`` (:class:`~solver.system.contact_pairs.ContactGeometry`), bracketed from ``tol`` (m)."""
    m_eff = effective_mass(asm, s.q, s.t, geometry.J)
    return predicted_peak(law._normal[0], law._normal[1], loading_rate(law.normal == "kelvin_voigt"), m_eff,
                          float(speed), tol)


@njit(cache=True)
def loading_rate(kelvin):
    """The sign of δ̇ with which a loading law's elastic energy is read (Kelvin-Voigt's loading branch)."""
    return 1.0 if kelvin else 0.0


@njit(cache=True)
def band_effective_mass(q, J_local, dofs, system, inertia):
    """:func:`effective_mass` (kg) at ``q`` of a pair with Jacobian rows ``J_local`` (2, k) on ``dofs``, the
    constrained mass matrix factorised by band LU as :meth:`~solver.system.assembly.Assembly.mass_factors` does
    it for a run without velocity jumps or modal links (:func:`~solver.system.assembly.mass_factorize`, the
    solves of :class:`~solver.system.banded.BandLU`, ``D = J X`` by the same BLAS product): the same number.
    ``system`` are :meth:`~solver.integration.newmark.NewmarkIntegrator.run_arguments`, ``inertia`` = (flat band
    positions of the element blocks, band storage, pivots, the constraints' target, scratch for their residual,
    values and rates, the compliant blocks' size)."""
    band_pos, AB, ipiv, target, g, G_vals, gamma, extra_size = inertia
    constraint_eval(q, np.empty(0), system[9], target, np.zeros(target.shape[0]), system[10], system[11], system[12],
                    system[13], system[14], system[15], g, G_vals, gamma)
    singular = mass_factorize(q, system[4], system[5], system[6], system[3], system[0], G_vals, extra_size, system[23],
                              system[24], band_pos, AB, system[26], system[27], ipiv, system[30])[1]
    n, size = q.shape[0], AB.shape[1]
    J = np.zeros((2, n))
    for j in range(dofs.shape[0]):
        J[0, dofs[j]], J[1, dofs[j]] = J_local[0, j], J_local[1, j]
    X, rhs, x = np.empty((n, 2)), np.zeros(size), np.empty(size)
    for k in range(2):
        rhs[:] = 0.0
        rhs[:n] = J[k]
        if singular:
            x[:] = np.nan
        else:
            band_solve(AB, system[26], system[27], ipiv, system[29], rhs, x)
        X[:, k] = x[:n]
    D = np.dot(J, X)  # BLAS, as contact_inertia's J @ X
    D_nn = D[0, 0] + 1e-12 * (D[0, 0] + D[1, 1])
    return 1.0 / D_nn if D_nn > 0.0 and math.isfinite(D_nn) else math.inf
