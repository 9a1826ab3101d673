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

import math
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
from ..jit import njit

from .law_params import LawSpec, Parameter


class FrictionForce(NamedTuple):
    """Tangential force (N) and its derivative with respect to slip velocity (N s/m)."""

    force: np.ndarray
    dF_dv_t: np.ndarray


#: law numbers of :func:`friction_kernel`, by the names of the model file
LAW_IDS = {name: i for i, name in enumerate(("coulomb", "rooney_deravi", "threlfall", "ambrosio"))}
COULOMB, ROONEY_DERAVI, THRELFALL, AMBROSIO = range(4)


@njit(cache=True)
def friction_kernel(law, v_t, F_n, p):
    """``(F_t, dF_t/dv_t)`` of law number ``law`` at slip velocity ``v_t`` (m/s) and normal
    force ``F_n`` (N, clipped at 0): F_t = -c_f F_n φ(v_t).  Parameters packed as the
    law's spec: ``(c_f,)``, ``(c_f, v_stick)``, ``(c_f, v_r)``, ``(c_f, v0, v1)``."""
    pressed = max(F_n, 0.0)
    speed = abs(v_t)
    sign = 1.0 if v_t > 0.0 else (-1.0 if v_t < 0.0 else 0.0)
    if law == COULOMB:
        phi, dphi = sign, 0.0
    elif law == ROONEY_DERAVI:
        phi = min(max(v_t / p[1], -1.0), 1.0)
        dphi = 1.0 / p[1] if speed < p[1] else 0.0
    elif law == THRELFALL:
        x = 3.0 * speed / p[1]
        phi, dphi = -sign * math.expm1(-x), 3.0 / p[1] * math.exp(-x)
    else:
        v0, v1 = p[1], p[2]
        phi = sign * min(max((speed - v0) / (v1 - v0), 0.0), 1.0)
        dphi = 1.0 / (v1 - v0) if v0 < speed < v1 else 0.0
    return -p[0] * pressed * phi, -p[0] * pressed * dphi


@njit(cache=True)
def friction_many(law, v_t, F_n, p):
    """:func:`friction_kernel` over flat arrays: (2, N) rows F_t, dF_t/dv_t."""
    out = np.empty((2, v_t.shape[0]))
    for i in range(v_t.shape[0]):
        out[0, i], out[1, i] = friction_kernel(law, v_t[i], F_n[i], p)
    return out


def _evaluate(law: str, p: tuple[float, ...], v_t, F_n) -> FrictionForce:
    """The compiled kernel of ``law`` over the broadcast state (numpy scalars for scalar input)."""
    v, f = np.broadcast_arrays(np.asarray(v_t, dtype=float), np.asarray(F_n, dtype=float))
    out = friction_many(LAW_IDS[law], v.ravel(), f.ravel(), np.array(p, dtype=float))
    return FrictionForce(*(np.array(row.reshape(v.shape))[()] for row in out))


def _check_positive(name: str, value: float) -> None:
    if not value > 0.0:
        raise ValueError(f"{name} must be > 0, got {value}")


def coulomb(v_t, F_n, *, c_f: float) -> FrictionForce:
    """Coulomb, eq. (13) (eq. 12 with c_c = c_f): F_t = -c_f F_n sign(v_t).

    Discontinuous at v_t = 0, where it returns 0; dF_t/dv_t = 0 elsewhere.  For
    reference only: an integrator cannot step across its jump.  c_f (-).
    """
    return _evaluate("coulomb", (c_f,), v_t, F_n)


def rooney_deravi(v_t, F_n, *, c_f: float, v_stick: float) -> FrictionForce:
    """Rooney-Deravi, eqs. (13)-(14): Coulomb outside a stick band |v_t| < v_stick.

    Inside the band eq. (14) only bounds the force, |F_t| < c_f F_n (the sticking force
    is whatever holds the contact); as a function of v_t alone this takes the member of
    that range linear in v_t, F_t = -c_f F_n v_t/v_stick, continuous at the band's
    edges.  This coincides with :func:`ambrosio` for v0 = 0, v1 = v_stick.
    c_f (-), v_stick (m/s) > 0, the band's half-width (not named in the seed).
    """
    _check_positive("v_stick", v_stick)
    return _evaluate("rooney_deravi", (c_f, v_stick), v_t, F_n)


def threlfall(v_t, F_n, *, c_f: float, v_r: float) -> FrictionForce:
    """Threlfall, eq. (15): F_t = -c_f F_n sign(v_t) (1 - exp(-3 |v_t|/v_r)).

    The seed prints eq. (15) without the minus sign, which would push along the slip;
    the sign here is that of eqs. (12), (13) and (16), as §4's first law of friction
    requires.  Smooth, with slope -3 c_f F_n/v_r at v_t = 0; 95 % of c_f F_n at
    |v_t| = v_r.  c_f (-), v_r (m/s) > 0 the characteristic velocity.
    """
    _check_positive("v_r", v_r)
    return _evaluate("threlfall", (c_f, v_r), v_t, F_n)


def ambrosio(v_t, F_n, *, c_f: float, v0: float, v1: float) -> FrictionForce:
    """Ambrósio, eqs. (16)-(17): F_t = -c_f c_d F_n sign(v_t) with the dynamic
    correction c_d = 0 for |v_t| ≤ v0, (|v_t| - v0)/(v1 - v0) between, 1 for |v_t| ≥ v1.

    Continuous, no force below v0 (no sticking), kinks at ±v0 and ±v1 (one-sided slopes;
    the derivative returned there is that of the outer side).  c_f (-), 0 ≤ v0 < v1 (m/s).
    """
    if not 0.0 <= v0 < v1:
        raise ValueError(f"need 0 <= v0 < v1, got v0 = {v0}, v1 = {v1}")
    return _evaluate("ambrosio", (c_f, v0, v1), v_t, F_n)


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
