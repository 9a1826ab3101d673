"""A compliant contact's own scale (:mod:`solver.contact.contact_scale`, :mod:`solver.contact.step_criteria`, issue 28 point 1): the
effective mass of a pair (LAJSS 2024's rod: D_nn = 2.5 1/kg), the peak penetration its approach
predicts (Johnson, *Contact Mechanics* §11.4), the step that extrapolates to a change of
penetration, and an elastic Hertz impact stepped on that scale.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from solver.api import simulate
from solver.contact.contact_scale import effective_mass, predicted_peak
from solver.contact.normal_kernels import HERTZ
from solver.contact.step_criteria import increment_step
from solver.system.assembly import Assembly
from solver.system.compile import compile_model
from tests.oracles.test_models_agree import _rod

from .test_compliant_contact import K, MASS, SPEED, ball_on_floor, drift, rebound


def test_effective_mass_of_the_rod_striking_the_ground_is_one_over_D_nn():
    """The free rod (1 kg, 1 m, I = 1/12 kg m², at 45°) struck at its end: D_nn = 1/m + 12 (L/2 cos 45°)²
    = 2.5 1/kg (VALIDATION.md), m_eff = 0.4 kg."""
    asm = Assembly(compile_model(_rod({"kind": "compliant", "law": "hertz", "stiffness": 1e8})))
    q = asm.sys.q0
    assert effective_mass(asm, q, 0.0, asm.sys.contacts[0].geometry(q).J) == pytest.approx(0.4, rel=1e-9)


def test_predicted_peak_of_a_hertz_impact_is_johnsons():
    """V(δ) = (2/5) K δ^(5/2) = m v²/2 at δ_c = (5 m v² / 4K)^(2/5), to the bisection's 1e-9."""
    hertz = np.array([K, 1.5])  # V = K δ^2.5 / 2.5
    delta_c = predicted_peak(HERTZ, hertz, 0.0, MASS, SPEED, 1e-7)
    assert delta_c == pytest.approx((5 * MASS * SPEED**2 / (4 * K)) ** 0.4, rel=1e-9)
    assert predicted_peak(HERTZ, hertz, 0.0, math.inf, SPEED, 1e-7) == 0.0  # held: no scale


@pytest.mark.parametrize(("rate", "acceleration", "target", "step"), [
    (1.0, 0.0, 0.1, 0.1),  # uniform motion
    (-1.0, 0.0, 0.1, 0.1),  # either direction
    (1.0, -2.0, 0.1, (1 - math.sqrt(0.6)) / 2),  # h - h² = 0.1 before it turns
    (1.0, -2.0, 1.0, (1 + math.sqrt(5)) / 2),  # turns at 0.25 and comes back 1 below: h - h² = -1
    (0.0, 2.0, 1.0, 1.0),  # from rest: h² = 1
])
def test_increment_step_reaches_the_target_change(rate, acceleration, target, step):
    assert increment_step(rate, acceleration, target) == pytest.approx(step, rel=1e-12)


def test_an_elastic_hertz_impact_on_its_own_scale_rebounds_as_accurately_in_fewer_steps():
    """The Johnson ball at ``contact_accuracy`` 1e-3: e - 1 = +1.6e-4 in 92 steps (measured), where
    the increment criterion on the present penetration took 197 steps for +1.75e-4."""
    res = simulate(ball_on_floor(accuracy=1e-3))
    assert abs(rebound(res) - 1.0) < 2e-4
    assert drift(res) < 1e-3
    assert len(res.steps) < 120
