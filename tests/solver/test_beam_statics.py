"""Corotational beam: rigid-motion patch test, cantilever limits, modal frequencies."""
import math

import numpy as np
import pytest

from solver.system.assembly import Assembly
from solver.system.compile import compile_model
from solver.fem.beam import FORMULATIONS, deformations, element_terms
from solver.analysis.modal import natural_modes
from solver.analysis.static import static_equilibrium

from .builders import beam_model


def element_force(asm, qe, formulation="consistent", want=False):
    """Internal force (and tangent, with ``want``) of element 0 at coordinates qe."""
    f = np.zeros(6)
    blk = np.zeros((6, 6))
    z6 = np.zeros(6)
    element_terms(qe, z6, z6, asm.secs[0], asm.Mbar[0], FORMULATIONS[formulation], 0.0, 0.0, want,
                  0.0, 0.0, 1.0, f, np.zeros(6), np.zeros(6), blk)
    return f, blk


@pytest.mark.parametrize("formulation", ["consistent", "thesis"])
@pytest.mark.parametrize("angle", [0.3, 2.0, -2.9, 7.5])
def test_rigid_motion_gives_no_internal_force(formulation, angle):
    """An unloaded beam translated and rotated through large angles stays unstrained."""
    asm = Assembly(compile_model(beam_model(n=4, clamp=False, solver={"formulation": formulation})))
    s = asm.sys
    q = s.q0.copy()
    xy = q[s.node_dofs]
    c, sn = math.cos(angle), math.sin(angle)
    q[s.node_dofs] = xy @ np.array([[c, sn], [-sn, c]]) + np.array([3.0, -7.0])
    q[s.rot_dofs] = angle
    for e in range(s.beams.count):
        f, _K = element_force(asm, q[s.elem_dofs[e]], formulation)
        assert np.abs(f).max() < 1e-6
    d = deformations(q, s.elem_dofs, asm.secs)
    np.testing.assert_allclose(d[:, 2], s.beams.L, rtol=1e-13)
    assert asm.strain_energy(q) < 1e-18


@pytest.mark.parametrize("formulation", ["consistent", "thesis"])
def test_tangent_against_finite_differences(formulation):
    """The consistent tangent is the derivative of the internal force; the thesis's (2.57)
    misses the rotating-frame terms, so it is only close for a straight, unloaded element."""
    asm = Assembly(compile_model(beam_model(n=3, clamp=False)))
    rng = np.random.default_rng(1)
    qe = asm.sys.q0[asm.sys.elem_dofs[0]] + 0.05 * rng.standard_normal(6)
    _f, K = element_force(asm, qe, formulation, want=True)
    h = 1e-7
    J = np.empty((6, 6))
    for j in range(6):
        dq = np.zeros(6)
        dq[j] = h
        J[:, j] = (element_force(asm, qe + dq, formulation)[0] - element_force(asm, qe - dq, formulation)[0]) / (2 * h)
    err = np.abs(J - K).max() / np.abs(K).max()
    if formulation == "consistent":
        assert err < 1e-6
    else:
        assert err > 1e-4


def test_cantilever_tip_deflection_matches_beam_theory():
    """PL^3/3EI within 0.5 % with 10 elements (small load)."""
    L, EI, P = 1.0, 100.0, 1e-3
    eq = static_equilibrium(beam_model(L=L, EI=EI, n=10, loads=[{"node": "tip", "fy": -P}]), load_steps=1)
    tip = eq.node_xy("tip")
    expected = P * L**3 / (3 * EI)
    assert -tip[1] == pytest.approx(expected, rel=5e-3)


def test_end_moment_rolls_cantilever_into_a_circle():
    """M = 2 pi EI / L bends the cantilever into a full circle: the tip returns to the root."""
    L, EI = 1.0, 100.0
    M = 2 * math.pi * EI / L
    eq = static_equilibrium(beam_model(L=L, EI=EI, EA=1e8, n=20, loads=[{"node": "tip", "torque": M}]), load_steps=20)
    tip = eq.node_xy("tip")
    assert np.linalg.norm(tip) < 0.01 * L
    assert eq.rotation("tip", "beam") == pytest.approx(2 * math.pi, rel=1e-3)


def test_cantilever_bending_frequencies_match_euler_bernoulli():
    """First three bending frequencies within 1 % with 20 elements (rhoI negligible)."""
    L, EI, rhoA = 1.0, 100.0, 2.0
    modes = natural_modes(beam_model(L=L, EI=EI, EA=1e9, rhoA=rhoA, n=20), count=3)
    beta_L = np.array([1.875104, 4.694091, 7.854757])
    expected = beta_L**2 * math.sqrt(EI / (rhoA * L**4)) / (2 * math.pi)
    np.testing.assert_allclose(modes.frequencies, expected, rtol=1e-2)
