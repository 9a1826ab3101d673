"""Timoshenko (shear-flexible) corotational beam: the interdependent-interpolation element."""
import math

import numpy as np
import pytest

from solver.analysis.modal import natural_modes
from solver.analysis.static import static_equilibrium
from solver.fem.beam import FORMULATIONS, deformations, element_terms
from solver.fem.timoshenko import local_mass
from solver.fem.beam import BeamSet
from solver.system.assembly import Assembly
from solver.system.compile import compile_model

from .builders import beam_model

E, NU, RHO, K_SHEAR = 2e11, 0.3, 7800.0, 5.0 / 6.0
G = E / (2 * (1 + NU))


def rectangle_beam(L, h, b=0.05, n=10, shear=True, **kw):
    """A cantilever of steel with a rectangular section b x h (shear coefficient 5/6)."""
    doc = beam_model(L=L, n=n, **kw)
    doc["materials"] = [{"id": "steel", "E": E, "density": RHO, "poisson": NU}]
    doc["links"][0]["section"] = {"kind": "rectangle", "material": "steel", "b": b, "h": h, "shear": shear,
                                  "shear_coefficient": K_SHEAR}
    return doc


@pytest.mark.parametrize("h", [0.01, 0.5])  # L/h = 100 (slender) and 2 (stubby)
@pytest.mark.parametrize("formulation", ["consistent", "thesis"])
def test_cantilever_tip_deflection_adds_the_shear_deflection(h, formulation):
    """P L^3 / 3EI + P L / (k G A) within 0.1 % with 10 elements (the IIE is exact here)."""
    L, b = 1.0, 0.05
    EI, A = E * b * h**3 / 12, b * h
    expected = L**3 / (3 * EI) + L / (K_SHEAR * G * A)
    P = 1e-5 / expected  # a tip deflection of 1e-5 L: linear
    eq = static_equilibrium(rectangle_beam(L, h, loads=[{"node": "tip", "fy": -P}],
                                           solver={"formulation": formulation}), load_steps=1)
    assert -eq.node_xy("tip")[1] == pytest.approx(P * expected, rel=1e-3)


def timoshenko_simply_supported(n, L, EI, kGA, rhoA, rhoI):
    """The bending (lower) root of the simply supported Timoshenko beam's frequency equation, Hz.

    With ``w = W sin(a x)``, ``psi = Psi cos(a x)``, ``a = n pi / L`` in Timoshenko's equations
    ``rhoA w_tt = kGA (w'' - psi')``, ``rhoI psi_tt = EI psi'' + kGA (w' - psi)`` (Han, Benaroya &
    Wei 1999, J. Sound Vib. 225(5) 935-988, §6, hinged-hinged):
    ``rhoA rhoI w^4 - [rhoA (EI a^2 + kGA) + rhoI kGA a^2] w^2 + kGA EI a^4 = 0``.
    """
    a = n * math.pi / L
    A2, B, C = rhoA * rhoI, rhoA * (EI * a * a + kGA) + rhoI * kGA * a * a, kGA * EI * a**4
    w2 = (B - math.sqrt(B * B - 4 * A2 * C)) / (2 * A2)
    return math.sqrt(w2) / (2 * math.pi)


def test_stubby_simply_supported_frequencies_match_timoshenko():
    """First three bending frequencies of a beam with L/h = 2 within 0.5 % (40 elements).

    EA is raised 1000-fold so that no axial mode falls among them; the FE frequency
    nearest each analytic one is compared (the second spectrum's shear modes lie between).
    """
    L, b, h = 1.0, 0.05, 0.5
    A, I = b * h, b * h**3 / 12
    EI, kGA, rhoA, rhoI = E * I, K_SHEAR * G * A, RHO * A, RHO * I
    doc = beam_model(L=L, n=40, clamp=False, EA=1e3 * E * A, EI=EI, rhoA=rhoA, rhoI=rhoI)
    doc["links"][0]["section"].update(shear=True, kGA=kGA)
    doc["joints"] = [{"id": "a", "kind": "ground", "node": "root"}, {"id": "b", "kind": "ground", "node": "tip"}]
    fe = natural_modes(doc, count=12).frequencies
    for n in (1, 2, 3):
        f = timoshenko_simply_supported(n, L, EI, kGA, rhoA, rhoI)
        euler = (n * math.pi / L) ** 2 * math.sqrt(EI / rhoA) / (2 * math.pi)
        assert f < 0.85 * euler  # shear and rotary inertia matter here
        nearest = fe[np.argmin(np.abs(fe - f))]
        assert nearest == pytest.approx(f, rel=5e-3)


@pytest.mark.parametrize("formulation", ["consistent", "thesis"])
def test_slender_limit_equals_the_euler_bernoulli_element(formulation):
    """With k G A -> infinity (phi ~ 1e-10) deflection, frequencies and the element's forces,
    tangent and mass equal the Euler-Bernoulli element's to 1e-6."""
    loads = [{"node": "tip", "fy": -50.0, "torque": 20.0}]
    euler = beam_model(n=6, loads=loads, rhoI=1e-3, solver={"formulation": formulation})
    shear = beam_model(n=6, loads=loads, rhoI=1e-3, solver={"formulation": formulation})
    shear["links"][0]["section"].update(shear=True, kGA=1e13)
    tips = [static_equilibrium(d, load_steps=4).node_xy("tip") for d in (euler, shear)]
    np.testing.assert_allclose(tips[1], tips[0], rtol=1e-6)
    freqs = [natural_modes(d, count=4).frequencies for d in (euler, shear)]
    np.testing.assert_allclose(freqs[1], freqs[0], rtol=1e-6)
    asms = [Assembly(compile_model(d)) for d in (euler, shear)]
    rng = np.random.default_rng(3)
    q = asms[0].sys.q0 + 0.05 * rng.standard_normal(asms[0].n)
    v, a = rng.standard_normal(asms[0].n), rng.standard_normal(asms[0].n)
    out = [asm.forces(q, v, a, 0.0, blocks=(2.0, 0.5, 1.0)) for asm in asms]
    scale = np.abs(out[0][0].residual).max()
    np.testing.assert_allclose(out[1][0].residual, out[0][0].residual, rtol=0, atol=1e-6 * scale)
    np.testing.assert_allclose(out[1][1], out[0][1], rtol=0, atol=1e-6 * np.abs(out[0][1]).max())


def test_iie_mass_is_the_thesis_mass_at_phi_zero():
    """A.25 + A.26 (translational and rotary consistent mass) at phi = 0."""
    L, rhoA, rhoI = 0.7, 3.0, 0.02
    trans = rhoA * L / 420 * np.array([[140, 0, 0, 70, 0, 0], [0, 156, 22 * L, 0, 54, -13 * L],
                                       [0, 22 * L, 4 * L * L, 0, 13 * L, -3 * L * L], [70, 0, 0, 140, 0, 0],
                                       [0, 54, 13 * L, 0, 156, -22 * L], [0, -13 * L, -3 * L * L, 0, -22 * L, 4 * L * L]])
    rot = rhoI / (30 * L) * np.array([[0, 0, 0, 0, 0, 0], [0, 36, 3 * L, 0, -36, 3 * L],
                                      [0, 3 * L, 4 * L * L, 0, -3 * L, -L * L], [0, 0, 0, 0, 0, 0],
                                      [0, -36, -3 * L, 0, 36, -3 * L], [0, 3 * L, -L * L, 0, -3 * L, 4 * L * L]])
    M = local_mass(np.array([L]), np.array([rhoA]), np.array([rhoI]), np.array([0.0]))[0]
    np.testing.assert_allclose(M, trans + rot, rtol=0, atol=1e-14 * np.abs(trans).max())
    # the mass of a shear-flexible element still carries the whole mass rigidly
    Ms = BeamSet(np.array([L]), *np.zeros((2, 1)), np.zeros(1), np.array([rhoA]), np.array([rhoI]),
                 phi=np.array([2.5])).local_mass()[0]
    up = np.array([0, 1, 0, 0, 1, 0.0])
    assert up @ Ms @ up == pytest.approx(rhoA * L, rel=1e-13)


def shear_element(formulation="consistent"):
    doc = rectangle_beam(1.0, 0.4, n=1, shear=True, solver={"formulation": formulation})
    asm = Assembly(compile_model(doc))
    assert asm.sys.beams.shear[0] > 0.1  # stubby: phi is not small
    return asm


def element_force(asm, qe, formulation="consistent", want=False):
    f, blk, z6 = np.zeros(6), np.zeros((6, 6)), np.zeros(6)
    element_terms(qe, z6, z6, asm.secs[0], asm.Mbar[0], FORMULATIONS[formulation], 0.0, 0.0, want,
                  0.0, 0.0, 1.0, f, np.zeros(6), np.zeros(6), blk)
    return f, blk


@pytest.mark.parametrize("formulation", ["consistent", "thesis"])
@pytest.mark.parametrize("angle", [0.4, 2.5, -3.0])
def test_rigid_motion_of_a_timoshenko_element_gives_no_internal_force(formulation, angle):
    asm = shear_element(formulation)
    s = asm.sys
    q = s.q0.copy()
    c, sn = math.cos(angle), math.sin(angle)
    q[s.node_dofs] = q[s.node_dofs] @ np.array([[c, sn], [-sn, c]]) + np.array([-2.0, 5.0])
    q[s.rot_dofs] = angle
    f, _K = element_force(asm, q[s.elem_dofs[0]], formulation)
    assert np.abs(f).max() < 1e-15 * s.beams.EA[0] * 100  # round-off of u = (l^2 - L^2) / (l + L)
    assert asm.strain_energy(q) < 1e-12


def test_timoshenko_tangent_is_the_derivative_of_the_internal_force():
    asm = shear_element()
    rng = np.random.default_rng(7)
    qe = asm.sys.q0[asm.sys.elem_dofs[0]] + 0.02 * rng.standard_normal(6)
    _f, K = element_force(asm, qe, want=True)
    h = 1e-7
    J = np.empty((6, 6))
    for j in range(6):
        dq = np.zeros(6)
        dq[j] = h
        J[:, j] = (element_force(asm, qe + dq)[0] - element_force(asm, qe - dq)[0]) / (2 * h)
    np.testing.assert_allclose(K, J, rtol=1e-5, atol=1e-6 * np.abs(K).max())


def test_internal_force_is_the_gradient_of_the_strain_energy():
    """The shear energy enters U consistently: f = dU/dq."""
    asm = shear_element()
    s = asm.sys
    rng = np.random.default_rng(11)
    q = s.q0 + 0.02 * rng.standard_normal(asm.n)
    f = asm.forces(q, np.zeros(asm.n), np.zeros(asm.n), 0.0).internal
    h = 1e-7
    grad = np.array([(asm.strain_energy(q + h * e) - asm.strain_energy(q - h * e)) / (2 * h) for e in np.eye(asm.n)])
    np.testing.assert_allclose(grad, f, rtol=1e-5, atol=1e-6 * np.abs(f).max())
    assert deformations(q, s.elem_dofs, asm.secs).shape == (1, 9)
