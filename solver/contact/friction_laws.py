"""Tangential friction force laws: Flores, Ambrósio, Claro & Lankarani 2006
(``001_…txt``) §4, eqs. (12)-(17).

State: tangential slip velocity ``v_t`` (m/s, signed, in the plane) and normal force
``F_n`` (N; a negative value is read as 0, no contact).  Every law has the form
F_t = -c_f F_n φ(v_t) with φ odd, sign(φ) = sign(v_t) and |φ| ≤ 1, so the force opposes
slip and never does positive work (F_t v_t ≤ 0) and never exceeds c_f F_n.  Each law
returns :class:`FrictionForce` ``(force, dF_dv_t)``, vectorised over ``v_t`` and
``F_n``; the laws are linear in F_n, so ∂F_t/∂F_n = F_t/F_n for F_n > 0.

>>> float(friction_force("ambrosio", {"c_f": 0.1, "v0": 1e-4, "v1": 1e-3}, -0.5, 200.0).force)
20.0
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from .law_params import LawSpec, Parameter


class FrictionForce(NamedTuple):
    """Tangential force (N) and its derivative with respect to slip velocity (N s/m)."""

    force: np.ndarray
    dF_dv_t: np.ndarray


def _opposing(c_f: float, F_n, phi, dphi) -> FrictionForce:
    """F_t = -c_f F_n φ and dF_t/dv_t = -c_f F_n φ', F_n clipped at 0."""
    pressed = np.maximum(np.asarray(F_n, dtype=float), 0.0)
    arrays = np.broadcast_arrays(-c_f * pressed * phi, -c_f * pressed * dphi)
    return FrictionForce(*(np.array(a)[()] for a in arrays))


def _check_positive(name: str, value: float) -> None:
    if not value > 0.0:
        raise ValueError(f"{name} must be > 0, got {value}")


def coulomb(v_t, F_n, *, c_f: float) -> FrictionForce:
    """Coulomb, eq. (13) (eq. 12 with c_c = c_f): F_t = -c_f F_n sign(v_t).

    Discontinuous at v_t = 0, where it returns 0; dF_t/dv_t = 0 elsewhere.  For
    reference only: an integrator cannot step across its jump.  c_f (-).
    """
    v_t = np.asarray(v_t, dtype=float)
    return _opposing(c_f, F_n, np.sign(v_t), np.zeros_like(v_t))


def rooney_deravi(v_t, F_n, *, c_f: float, v_stick: float) -> FrictionForce:
    """Rooney-Deravi, eqs. (13)-(14): Coulomb outside a stick band |v_t| < v_stick.

    Inside the band eq. (14) only bounds the force, |F_t| < c_f F_n (the sticking force
    is whatever holds the contact); as a function of v_t alone this takes the member of
    that range linear in v_t, F_t = -c_f F_n v_t/v_stick, continuous at the band's
    edges.  This coincides with :func:`ambrosio` for v0 = 0, v1 = v_stick.
    c_f (-), v_stick (m/s) > 0, the band's half-width (not named in the seed).
    """
    _check_positive("v_stick", v_stick)
    v_t = np.asarray(v_t, dtype=float)
    phi = np.clip(v_t / v_stick, -1.0, 1.0)
    return _opposing(c_f, F_n, phi, np.where(np.abs(v_t) < v_stick, 1.0 / v_stick, 0.0))


def threlfall(v_t, F_n, *, c_f: float, v_r: float) -> FrictionForce:
    """Threlfall, eq. (15): F_t = -c_f F_n sign(v_t) (1 - exp(-3 |v_t|/v_r)).

    The seed prints eq. (15) without the minus sign, which would push along the slip;
    the sign here is that of eqs. (12), (13) and (16), as §4's first law of friction
    requires.  Smooth, with slope -3 c_f F_n/v_r at v_t = 0; 95 % of c_f F_n at
    |v_t| = v_r.  c_f (-), v_r (m/s) > 0 the characteristic velocity.
    """
    _check_positive("v_r", v_r)
    v_t = np.asarray(v_t, dtype=float)
    x = 3.0 * np.abs(v_t) / v_r
    return _opposing(c_f, F_n, -np.sign(v_t) * np.expm1(-x), 3.0 / v_r * np.exp(-x))


def ambrosio(v_t, F_n, *, c_f: float, v0: float, v1: float) -> FrictionForce:
    """Ambrósio, eqs. (16)-(17): F_t = -c_f c_d F_n sign(v_t) with the dynamic
    correction c_d = 0 for |v_t| ≤ v0, (|v_t| - v0)/(v1 - v0) between, 1 for |v_t| ≥ v1.

    Continuous, no force below v0 (no sticking), kinks at ±v0 and ±v1 (one-sided slopes;
    the derivative returned there is that of the outer side).  c_f (-), 0 ≤ v0 < v1 (m/s).
    """
    if not 0.0 <= v0 < v1:
        raise ValueError(f"need 0 <= v0 < v1, got v0 = {v0}, v1 = {v1}")
    v_t = np.asarray(v_t, dtype=float)
    speed = np.abs(v_t)
    c_d = np.clip((speed - v0) / (v1 - v0), 0.0, 1.0)
    return _opposing(c_f, F_n, np.sign(v_t) * c_d, np.where((v0 < speed) & (speed < v1), 1.0 / (v1 - v0), 0.0))


_C_F = Parameter("c_f", "-", "coefficient of friction c_f")
_STATE = ("v_t", "F_n")

FRICTION_LAWS: dict[str, LawSpec] = {spec.name: spec for spec in (
    LawSpec("coulomb", "Flores et al. 2006 eqs. (12)-(13)", coulomb, _STATE, (_C_F,)),
    LawSpec("rooney_deravi", "Flores et al. 2006 eqs. (13)-(14)", rooney_deravi, _STATE,
            (_C_F, Parameter("v_stick", "m/s", "half-width of the stick band"))),
    LawSpec("threlfall", "Flores et al. 2006 eq. (15)", threlfall, _STATE,
            (_C_F, Parameter("v_r", "m/s", "characteristic velocity v_r"))),
    LawSpec("ambrosio", "Flores et al. 2006 eqs. (16)-(17)", ambrosio, _STATE,
            (_C_F, Parameter("v0", "m/s", "tolerance v0: no force below it"),
             Parameter("v1", "m/s", "tolerance v1: full c_f F_n above it"))),
)}
FRICTION_LAW_NAMES: tuple[str, ...] = tuple(FRICTION_LAWS)


def friction_force(law: str, params: Mapping[str, float], v_t, F_n) -> FrictionForce:
    """Friction force of the law named ``law`` (a key of :data:`FRICTION_LAWS`).

    Parameters
    ----------
    law : str
        Law name.
    params : mapping
        The law's parameters (``FRICTION_LAWS[law].parameters``).
    v_t, F_n : float or array
        Tangential slip velocity (m/s) and normal force (N).

    Returns
    -------
    FrictionForce
        ``(force, dF_dv_t)`` in N and N s/m.
    """
    if law not in FRICTION_LAWS:
        raise ValueError(f"unknown friction law {law!r}; known: {', '.join(FRICTION_LAW_NAMES)}")
    spec = FRICTION_LAWS[law]
    return spec.function(v_t, F_n, **spec.bind(params))
