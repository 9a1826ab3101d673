"""The consistent beam's inertia in closed form (solver/fem/beam_inertia.py): the integrals of the
shape functions, the mass in the undeformed state, and the inertia force as Lagrange's equations
of the kinetic energy whose mass it is."""
import math

import numpy as np
import pytest

from solver.fem.beam import BeamSet, kinematics
from solver.fem.beam_inertia import FIRST, INERTIA_INTEGRALS, exact_mass, inertia_force


def one_element(L=0.7, beta0=0.4, rhoA=3.0, rhoI=2e-3, phi=0.0):
    return BeamSet(np.array([L]), np.array([beta0]), np.array([1e6]), np.array([50.0]), np.array([rhoA]),
                   np.array([rhoI]), np.array([phi]))


def element_state(beams, q):
    """The section row, the kinematics and its r, zl at ``q``."""
    sec = beams.sections()[0]
    r, zl = np.empty(6), np.empty(6)
    kin = kinematics(q, sec[0], sec[3], r, zl)
    return sec, kin, r, zl


def mass(beams, q):
    sec, kin, r, zl = element_state(beams, q)
    M = np.empty((6, 6))
    exact_mass(sec, kin, r, zl, M)
    return M


def test_integrals_of_the_euler_bernoulli_shapes():
    """rhoA L (1, 1/2, 1/3), rhoA L^3/105 for int N3^2 (thesis A.25's 4 L^2 / 420), rhoI 2L/15 for
    int P3^2 (A.26's 4 L^2 / (30 L)) and rhoI L for the rotation of the chord."""
    L, rhoA, rhoI = 0.7, 3.0, 2e-3
    row = dict(zip(INERTIA_INTEGRALS, one_element(L, rhoA=rhoA, rhoI=rhoI).sections()[0, FIRST:]))
    assert (row["m"], row["m_x"], row["m_xx"]) == pytest.approx((rhoA * L, rhoA * L / 2, rhoA * L / 3), rel=1e-14)
    assert row["m_33"] == pytest.approx(rhoA * L**3 / 105, rel=1e-14)
    assert row["m_36"] == pytest.approx(-rhoA * L**3 / 140, rel=1e-14)  # A.25's -3 L^2 / 420
    assert row["j"] == pytest.approx(rhoI * L, rel=1e-14)
    assert row["j_33"] == pytest.approx(2 * rhoI * L / 15, rel=1e-14)


@pytest.mark.parametrize("phi", [0.0, 0.8])
def test_mass_in_the_undeformed_state_is_the_rotated_local_mass(phi):
    """``Q^T M_bar Q`` with the local mass of A.25 + A.26 (the IIE's with shear) in any rigid
    placement of the undeformed element."""
    L, beta0, turn = 0.7, 0.4, 1.3
    beams = one_element(L, beta0, phi=phi)
    b = beta0 + turn
    q = np.array([0.2, -0.1, turn, 0.2 + L * math.cos(b), -0.1 + L * math.sin(b), turn])
    c, s = math.cos(b), math.sin(b)
    Q = np.zeros((6, 6))
    for o in (0, 3):
        Q[o:o + 3, o:o + 3] = [[c, s, 0], [-s, c, 0], [0, 0, 1]]
    expected = Q.T @ beams.local_mass()[0] @ Q
    assert np.allclose(mass(beams, q), expected, rtol=0, atol=1e-14 * np.abs(expected).max())


@pytest.mark.parametrize("phi", [0.0, 0.8])
def test_inertia_force_is_lagrange_of_the_kinetic_energy(phi):
    """``f = M(q) a + (dM/dt) v - d/dq (1/2 v^T M v)`` (eq. 2.33 with T of A.18) for a bent, stretched,
    spinning element, the derivatives of the mass by central differences (1e-7 relative)."""
    beams = one_element(phi=phi)
    rng = np.random.default_rng(3)
    q = np.array([0.2, -0.1, 0.9, 0.2 + 0.71 * math.cos(1.35), -0.1 + 0.71 * math.sin(1.35), 1.05])
    v = rng.normal(size=6) * np.array([1, 1, 5, 1, 1, 5])
    a = rng.normal(size=6) * 30
    sec, kin, r, zl = element_state(beams, q)
    f = np.empty(6)
    inertia_force(v, a, sec, kin, r, zl, f)
    eps = 1e-6
    dM_dt = (mass(beams, q + eps * v) - mass(beams, q - eps * v)) / (2 * eps)
    dT_dq = np.array([0.5 * v @ (mass(beams, q + eps * e) - mass(beams, q - eps * e)) @ v / (2 * eps)
                      for e in np.eye(6)])
    expected = mass(beams, q) @ a + dM_dt @ v - dT_dq
    assert np.allclose(f, expected, rtol=0, atol=1e-7 * np.abs(expected).max())
