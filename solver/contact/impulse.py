"""Momentum balance of an impulse on the constrained system (thesis §3.3, eqs. 3.10-3.21).

An impulse ``P = (P_n, P_t)`` at a contact changes the generalised velocities by
``M dv = J^T P - G^T Lambda`` while the joints and drivers hold (``G dv = 0``): the
impulse-momentum balance with the constraints (Predebon's H matrix, ``003_…txt`` §4).
Solving ``[M G^T; G 0] [X; Y] = [J^T; 0]`` once gives ``dv = X P`` and the contact-space
inverse inertia ``D = J X`` that Routh's method works with (:mod:`solver.contact.routh`).
"""
from __future__ import annotations

import numpy as np

from ..system.assembly import Assembly, newton_scale
from ..system.state import State
from ..system.contact_pairs import ContactGeometry, ContactPair
from .routh import ImpactResult, routh_impulse


def impulse_response(asm: Assembly, q: np.ndarray, t: float, J: np.ndarray) -> np.ndarray:
    """``X`` (n, 2): the velocity jump per unit contact impulse, with the constraints held."""
    n = asm.n
    zero = np.zeros(n)
    _f, B, diag = asm.forces(q, zero, zero, t, blocks=(1.0, 0.0, 0.0))
    scale = newton_scale(B, diag)
    lu = asm.factorize(B, diag, asm.sys.constraints.values(q), scale)
    X = np.empty((n, 2))
    for k in range(2):
        X[:, k] = lu.solve(np.concatenate([J[k], np.zeros(asm.m)]))[:n]
    return X


def contact_inertia(asm: Assembly, q: np.ndarray, t: float, J: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(X, D)``: the velocity jump per unit contact impulse and the contact-space inverse
    inertia ``D = J X`` (LAJSS eq. 5), symmetrised.

    A mechanism with fewer free dofs than contact directions has a singular ``D`` (a
    pinned pendulum: rank 1); a relative 1e-12 on the diagonal keeps Routh's method defined.
    """
    X = impulse_response(asm, q, t, J)
    D = J @ X
    return X, 0.5 * (D + D.T) + 1e-12 * np.trace(D) * np.eye(2)


def apply_impulse(asm: Assembly, s: State, pair: ContactPair, geom: ContactGeometry) -> tuple[np.ndarray, ImpactResult]:
    """The velocities after the impulse at ``pair`` and Routh's solution of it."""
    X, D = contact_inertia(asm, s.q, s.t, geom.J)
    v_n0, v_t0 = geom.J @ s.v
    res = routh_impulse(D, float(v_n0), float(v_t0), pair.mu_s, pair.mu_d, pair.e, pair.law)
    return s.v + X @ np.array([res.I_n, res.I_t]), res
