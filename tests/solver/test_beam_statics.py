"""Corotational beam: rigid-motion patch test, cantilever limits, modal frequencies."""
import math

import numpy as np
import pytest

from solver.assembly import Assembly
from solver.compile import compile_model
from solver.fem.beam import beam_state, internal_force
from solver.modal import natural_modes
from solver.static import static_equilibrium

from .builders import beam_model


@pytest.mark.parametrize("formulation", ["consistent", "thesis"])
@pytest.mark.parametrize("angle", [0.3, 2.0, -2.9, 7.5])
def test_rigid_motion_gives_no_internal_force(formulation, angle):
    """An unloaded beam translated and rotated through large angles stays unstrained."""
    asm = Assembly(compile_model(beam_model(n=4, clamp=False, solver={"formulation": formulation})))
    s = asm.sys
    q = s.q0.copy()
    xy = q[s.node_dofs]
    c, sn = math.cos(angle), math.sin(angle)
    moved = xy @ np.array([[c, sn], [-sn, c]]) + np.array([3.0, -7.0])
    q[s.node_dofs] = moved
    q[s.rot_dofs] = angle
    st = beam_state(s.beams, q[s.elem_dofs])
    f, _K = internal_force(s.beams, st, formulation)
    assert np.abs(f).max() < 1e-6
    assert np.allclose(st.l, s.beams.L, rtol=1e-13)
    assert asm.strain_energy(q) < 1e-18


def test_consistent_tangent_is_the_derivative_of_the_internal_force():
    asm = Assembly(compile_model(beam_model(n=3, clamp=False)))
    s = asm.sys
    rng = np.random.default_rng(1)
    qe = s.q0[s.elem_dofs] + 0.05 * rng.standard_normal((3, 6))
    f0, K = internal_force(s.beams, beam_state(s.beams, qe), "consistent")
    h = 1e-7
    for j in range(6):
        dq = np.zeros_like(qe)
        dq[:, j] = h
        fp, _ = internal_force(s.beams, beam_state(s.beams, qe + dq), "consistent")
        fm, _ = internal_force(s.beams, beam_state(s.beams, qe - dq), "consistent")
        np.testing.assert_allclose((fp - fm) / (2 * h), K[:, :, j], rtol=1e-5, atol=1e-3)


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
