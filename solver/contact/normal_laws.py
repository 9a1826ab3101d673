"""Normal contact force laws of continuous contact: Flores, Ambrósio, Claro & Lankarani
2006 (``001_…txt``), §§2-3, plus Hunt-Crossley 1975 and Flores et al. 2011.

State: penetration ``delta`` (m, > 0 in contact), penetration rate ``delta_dot`` (m/s,
> 0 approaching), and for the hysteresis laws the rate at first contact
``delta_dot_0`` = δ̇⁽⁻⁾ (m/s, > 0).  Every law is vectorised over its state arrays and
returns :class:`NormalForce` ``(force, dF_ddelta, dF_ddelta_dot, valid, elastic)``: the force (N),
its partial derivatives for a Newton tangent, whether the formula holds there, and its
elastic part (the force at δ̇ = 0).
No law returns an adhesive (negative) force: where a law's formula would pull, and out
of contact (δ ≤ 0), the force and both derivatives are 0.

>>> F = normal_force("lankarani_nikravesh", {"K": 6.61e10, "c_e": 0.9}, 1e-5, 0.5, 1.0)
>>> round(float(F.force), 1), round(float(F.dF_ddelta_dot), 1)
(2239.2, 297.9)
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from ..model.schema import CYLINDER_LAWS
from .law_params import LawSpec, Parameter
from .normal_kernels import LAW_IDS, elastic_many, line_scales, normal_many, zeta


class NormalForce(NamedTuple):
    """Normal force (N), ∂F/∂δ (N/m), ∂F/∂δ̇ (N s/m), validity of the formula, and the
    force's elastic part (N): the force at δ̇ = 0, without the hysteresis term."""

    force: np.ndarray
    dF_ddelta: np.ndarray
    dF_ddelta_dot: np.ndarray
    valid: np.ndarray
    elastic: np.ndarray


def material_compliance(E: float, nu: float) -> float:
    """σ = (1 - ν²)/E (m²/N), eq. (4); E Young's modulus (Pa), ν Poisson's ratio."""
    return (1.0 - nu * nu) / E


def sphere_contact_stiffness(sigma_i: float, sigma_j: float, R_i: float, R_j: float = math.inf) -> float:
    """Generalised Hertz stiffness K (N/m^1.5) of two spheres, eqs. (3)-(5).

    K = 4 / (3 (σi + σj)) √(Ri Rj / (Ri + Rj)); ``R_j = inf`` is the plane, eq. (5),
    K = 4 / (3 (σi + σj)) √Ri.

    Parameters
    ----------
    sigma_i, sigma_j : float
        Material compliances (m²/N), :func:`material_compliance`.
    R_i, R_j : float
        Signed radii (m): positive convex, negative concave (a bore or cup).

    Raises
    ------
    ValueError
        If the effective radius Ri Rj / (Ri + Rj) is not positive and finite: a concave
        surface no larger than the convex one inside it, or two concave surfaces.
    """
    if math.isinf(R_j):
        R = R_i
    else:
        R = R_i * R_j / (R_i + R_j) if R_i + R_j != 0.0 else math.inf
    if not 0.0 < R < math.inf:
        raise ValueError(f"radii {R_i} m and {R_j} m give no Hertz contact (effective radius {R} m)")
    return 4.0 / (3.0 * (sigma_i + sigma_j)) * math.sqrt(R)


def _evaluate(law: str, p: tuple[float, ...], delta, delta_dot=0.0, delta_dot_0=1.0) -> NormalForce:
    """The compiled kernel of ``law`` over the broadcast state (numpy scalars for scalar input)."""
    d, r, r0 = np.broadcast_arrays(np.asarray(delta, dtype=float), np.asarray(delta_dot, dtype=float),
                                   np.asarray(delta_dot_0, dtype=float))
    out = normal_many(LAW_IDS[law], d.ravel(), r.ravel(), r0.ravel(), np.array(p, dtype=float))
    fields = [row.reshape(d.shape) for row in out]
    fields[3] = fields[3] > 0.5
    return NormalForce(*(np.array(f)[()] for f in fields))


def hooke(delta, *, K: float) -> NormalForce:
    """Linear spring F = K δ; K in N/m.  Out of contact (δ ≤ 0) F = 0."""
    return _evaluate("hooke", (K,), delta)


def kelvin_voigt(delta, delta_dot, *, K: float, c_e: float) -> NormalForce:
    """Kelvin-Voigt as eq. (1) states it: F = K δ loading (δ̇ > 0), F = c_e K δ unloading.

    The seed gives no damper: energy is lost by scaling the rebound force by c_e, so the
    rebound returns the fraction c_e of the stored energy and the effective coefficient
    of restitution is √c_e, not c_e.  The force jumps at δ̇ = 0 (counted as unloading,
    the state at maximum compression); ∂F/∂δ̇ = 0 elsewhere.  K in N/m, c_e in (0, 1].
    """
    return _evaluate("kelvin_voigt", (K, c_e), delta, delta_dot)


def _check_exponent(n: float) -> None:
    if n < 1.0:
        raise ValueError(f"exponent n = {n} < 1 gives an infinite stiffness at first contact")


def hertz(delta, *, K: float, n: float = 1.5) -> NormalForce:
    """Hertz F = K δⁿ, eq. (2); K in N/m^n (eqs. 3-5 for spheres), n = 1.5 (n ≥ 1)."""
    _check_exponent(n)
    return _evaluate("hertz", (K, n), delta)


def _hysteresis(law: str, delta, delta_dot, delta_dot_0, K: float, c_e: float, n: float) -> NormalForce:
    """F = K δⁿ (1 + ζ δ̇/δ̇⁽⁻⁾), 0 where the bracket is negative (:func:`.normal_kernels.zeta`)."""
    _check_exponent(n)
    if np.any(np.asarray(delta_dot_0, dtype=float) <= 0.0):
        raise ValueError("hysteresis laws need an impact velocity delta_dot_0 > 0")
    return _evaluate(law, (K, c_e, n), delta, delta_dot, delta_dot_0)


def lankarani_nikravesh(delta, delta_dot, delta_dot_0, *, K: float, c_e: float, n: float = 1.5) -> NormalForce:
    """Lankarani-Nikravesh, eqs. (6)-(9): F = K δⁿ [1 + 3(1 - c_e²)/4 · δ̇/δ̇⁽⁻⁾].

    The hysteresis factor of eq. (8) is χ = 3 K (1 - c_e²)/(4 δ̇⁽⁻⁾) (N s/m^2.5).  The
    seed limits eq. (9) to δ̇⁽⁻⁾ ≤ 1e-5 √(E/ρ) (≈ 0.05 m/s for steel); the time loop
    counts the impacts beyond it (it needs the materials:
    :mod:`solver.contact.compliant_laws`); ``valid`` is True.  K in N/m^n, c_e in
    (0, 1], δ̇⁽⁻⁾ in m/s.
    """
    return _hysteresis("lankarani_nikravesh", delta, delta_dot, delta_dot_0, K, c_e, n)


def hunt_crossley(delta, delta_dot, delta_dot_0, *, K: float, c_e: float, n: float = 1.5) -> NormalForce:
    """Hunt-Crossley (ref. [9]): F = K δⁿ (1 + χ δ̇), χ = 3(1 - c_e)/(2 δ̇⁽⁻⁾) (s/m).

    K in N/m^n, c_e in (0, 1], δ̇⁽⁻⁾ in m/s.
    """
    return _hysteresis("hunt_crossley", delta, delta_dot, delta_dot_0, K, c_e, n)


def flores(delta, delta_dot, delta_dot_0, *, K: float, c_e: float, n: float = 1.5) -> NormalForce:
    """Flores et al. 2011: F = K δⁿ (1 + χ δ̇), χ = 8(1 - c_e)/(5 c_e δ̇⁽⁻⁾) (s/m).

    K in N/m^n, c_e in (0, 1], δ̇⁽⁻⁾ in m/s.
    """
    return _hysteresis("flores", delta, delta_dot, delta_dot_0, K, c_e, n)


def _line_scales(law: str, sigma: float, length: float, R_bearing: float, R_journal: float) -> tuple[float, float]:
    """(a, B) of eqs. (10)-(11) written δ = a F [ln(B/F) + 1] (:func:`.normal_kernels.line_scales`),
    after checking 0 < Rj < Rb."""
    if not 0.0 < R_journal < R_bearing:
        raise ValueError(f"need 0 < R_journal < R_bearing, got {R_journal} m and {R_bearing} m")
    return line_scales(LAW_IDS[law], sigma, length, R_bearing, R_journal)


def _line_law(law: str, delta, sigma: float, length: float, R_bearing: float, R_journal: float) -> NormalForce:
    _line_scales(law, sigma, length, R_bearing, R_journal)
    return _evaluate(law, (sigma, length, R_bearing, R_journal), delta)


def dubowsky_freudenstein(delta, *, sigma: float, length: float, R_bearing: float, R_journal: float) -> NormalForce:
    """Dubowsky-Freudenstein pin in a bore, eq. (10) with b = 3, solved for F.

    δ = F (σ/L) [ln(L³ (Rb - Rj)/(F Rb Rj σ)) + 1], σ = σi + σj (m²/N), L the length
    (m), Rb > Rj > 0 the unsigned bearing and journal radii (m).  The relation rises
    only for F < L³ΔR/(Rb Rj σ), i.e. δ < L² ΔR/(Rb Rj) (1.18 mm for the seed's joint):
    ``valid`` is False beyond (see :func:`.normal_kernels.line_force`).  The Hertz
    line-contact theory behind it assumes a contact width small against the radii,
    which holds only far below that limit.
    """
    return _line_law("dubowsky_freudenstein", delta, sigma, length, R_bearing, R_journal)


def goldsmith(delta, *, sigma: float, length: float, R_bearing: float, R_journal: float) -> NormalForce:
    """Goldsmith, eq. (10) with b = 1, solved for F; σ, L, Rb, Rj as eq. (10).

    The logarithm's argument L ΔR/(F Rb Rj σ) has units 1/m², as the seed notes: the law
    holds in SI units only.  ``valid`` is False beyond δ = ΔR/(Rb Rj) (SI), 5.26 for the
    seed's joint, a bound that never binds.
    """
    return _line_law("goldsmith", delta, sigma, length, R_bearing, R_journal)


def esdu78035(delta, *, sigma: float, length: float, R_bearing: float, R_journal: float) -> NormalForce:
    """ESDU-78035 pin in a bore, eq. (11), solved for F; σ, L, Rb, Rj as eq. (10).

    δ = F (σ/L) [ln(4 L (Rb - Rj)/(F σ)) + 1]; rises for F < 4LΔR/σ, i.e. δ < 4 ΔR
    (four radial clearances): ``valid`` is False beyond.
    """
    return _line_law("esdu78035", delta, sigma, length, R_bearing, R_journal)


_K_LINEAR = Parameter("K", "N/m", "spring stiffness K")
_K = Parameter("K", "N/m^n", "generalised stiffness K, eqs. (3)-(5)")
_N = Parameter("n", "-", "exponent n, 1.5 for spheres", 1.5)
_C_E = Parameter("c_e", "-", "coefficient of restitution c_e, in (0, 1]")
_CYLINDERS = (Parameter("sigma", "m^2/N", "σi + σj, eq. (4)"),
              Parameter("length", "m", "contact length L"),
              Parameter("R_bearing", "m", "bearing (bore) radius Ri"),
              Parameter("R_journal", "m", "journal (pin) radius Rj"))
_RATE = ("delta", "delta_dot")
_IMPACT = ("delta", "delta_dot", "delta_dot_0")

NORMAL_LAWS: dict[str, LawSpec] = {spec.name: spec for spec in (
    LawSpec("hooke", "linear spring", hooke, ("delta",), (_K_LINEAR,)),
    LawSpec("kelvin_voigt", "Flores et al. 2006 eq. (1)", kelvin_voigt, _RATE, (_K_LINEAR, _C_E)),
    LawSpec("hertz", "Flores et al. 2006 eq. (2)", hertz, ("delta",), (_K, _N)),
    LawSpec("lankarani_nikravesh", "Flores et al. 2006 eqs. (8)-(9)", lankarani_nikravesh, _IMPACT, (_K, _C_E, _N)),
    LawSpec("hunt_crossley", "Hunt & Crossley 1975", hunt_crossley, _IMPACT, (_K, _C_E, _N)),
    LawSpec("flores", "Flores et al. 2011", flores, _IMPACT, (_K, _C_E, _N)),
    LawSpec("dubowsky_freudenstein", "Flores et al. 2006 eq. (10), b = 3", dubowsky_freudenstein, ("delta",), _CYLINDERS),
    LawSpec("goldsmith", "Flores et al. 2006 eq. (10), b = 1", goldsmith, ("delta",), _CYLINDERS),
    LawSpec("esdu78035", "Flores et al. 2006 eq. (11)", esdu78035, ("delta",), _CYLINDERS),
)}
NORMAL_LAW_NAMES: tuple[str, ...] = tuple(NORMAL_LAWS)


def _spec(law: str) -> LawSpec:
    if law not in NORMAL_LAWS:
        raise ValueError(f"unknown normal law {law!r}; known: {', '.join(NORMAL_LAW_NAMES)}")
    return NORMAL_LAWS[law]


def normal_force(law: str, params: Mapping[str, float], delta, delta_dot=0.0, delta_dot_0=None) -> NormalForce:
    """Normal force of the law named ``law`` (a key of :data:`NORMAL_LAWS`).

    Parameters
    ----------
    law : str
        Law name.
    params : mapping
        The law's parameters (``NORMAL_LAWS[law].parameters``); defaults fill omissions.
    delta, delta_dot, delta_dot_0 : float or array
        Penetration (m), its rate (m/s, > 0 approaching) and the rate at first contact
        (m/s, > 0; only the hysteresis laws read it).

    Returns
    -------
    NormalForce
        ``(force, dF_ddelta, dF_ddelta_dot, valid, elastic)``.
    """
    spec = _spec(law)
    state = {"delta": delta, "delta_dot": delta_dot, "delta_dot_0": delta_dot_0}
    if "delta_dot_0" in spec.inputs and delta_dot_0 is None:
        raise ValueError(f"law {law!r} needs the impact velocity delta_dot_0")
    return spec.function(*(state[name] for name in spec.inputs), **spec.bind(params))


def penetration_limit(law: str, params: Mapping[str, float]) -> float:
    """Largest penetration (m) the law's formula covers: aB for the cylinder laws, else inf."""
    params = _spec(law).bind(params)
    if law not in CYLINDER_LAWS:
        return math.inf
    a, B = _line_scales(law, **params)
    return a * B


def effective_restitution(law: str, params: Mapping[str, float]) -> float:
    """Coefficient of restitution the law gives a free 1-DOF impact, exactly.

    Kelvin-Voigt (eq. 1): √c_e (energy ratio c_e).  Hysteresis laws F = K δⁿ (1 + ζ δ̇/v)
    with v = δ̇⁽⁻⁾: m δ̇ dδ̇/dδ = -K δⁿ (1 + ζ δ̇/v) separates, and integrating over the
    whole impact (δ from 0 back to 0) gives f(ζ) = f(-ζ e) with f(x) = x - ln(1 + x),
    independent of m, K, n and v.  Elastic laws: 1.
    """
    c = _spec(law).bind(params).get("c_e")
    if law == "kelvin_voigt":
        return math.sqrt(c)
    if law not in ("lankarani_nikravesh", "hunt_crossley", "flores") or c == 1.0:
        return 1.0
    z = zeta(LAW_IDS[law], c)
    target = z - math.log1p(z)
    # with w = -ln(1 - ζe): f(-ζe) = w - (1 - exp(-w)), rising from 0 at w = 0
    from scipy.optimize import brentq  # here: scipy.optimize costs a run's start 0.15 s

    w = brentq(lambda w: w + math.expm1(-w) - target, 0.0, target + 1.0, xtol=1e-15, rtol=1e-15)
    return -math.expm1(-w) / z


def elastic_energy(law: str, params: Mapping[str, float], delta, delta_dot=0.0) -> np.ndarray:
    """Energy stored in the law's elastic part at penetration ``delta`` (J): V(δ) = ∫₀^δ F_el
    (:func:`.normal_kernels.elastic_kernel`; F_el is the force at δ̇ = 0).  For Kelvin-Voigt
    (eq. 1) the phase follows ``delta_dot`` (> 0 loading), so that the switch at maximum
    compression releases (1 - c_e) K δ²/2; 0 out of contact."""
    p = tuple(_spec(law).bind(params).values())
    d, r = np.broadcast_arrays(np.asarray(delta, dtype=float), np.asarray(delta_dot, dtype=float))
    return np.array(elastic_many(LAW_IDS[law], d.ravel(), r.ravel(), np.array(p, dtype=float)).reshape(d.shape))[()]
