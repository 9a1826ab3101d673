"""Contact models against each other (issue 26 item 2, VALIDATION.md *Oracles*): one rigid impact,
three models.

The free rigid rod of LAJSS 2024 (m = 1 kg, L = 1 m, I = 1/12 kg m^2, at 45 deg, its end B 1 mm
above the ground, centre of mass at (0.6, -1) m/s, no gravity, no friction).  The velocities of
its two ends 30 ms later (after the impact, whatever its duration) and the total normal impulse
``m (vy_after - vy_before)`` (no other force acts) are compared:

- a compliant pair with stiffness raised from 1e6 to 1e10 N/m^1.5 against the impulse model with
  the restitution the law achieves: Hertz's law (no damping) against ``e = 1``; Flores's law at
  ``c_e = 0.8`` against ``e = P / P_c - 1`` (P its total impulse, P_c the plastic impact's): the
  difference shrinks at every step of stiffness, to within :data:`AGREE` at the stiffest
  (measured: Hertz 1.8e-2 ... 4.8e-4, Flores 1.4e-2 ... 3.7e-4 of the rod's speed);
- a Lagrange pair (whose onset is a plastic impact) against the impulse model at ``e = 0``.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from solver.api import Results

from .runs import normal_impulse, run

#: the compliant pair's stiffness, raised step by step (N/m^1.5)
STIFFNESS = (1e6, 1e7, 1e8, 1e9, 1e10)
#: agreement at the stiffest, of the rod's initial speed, and of the impulse
AGREE = 0.01
#: the rod's initial speed (m/s)
SPEED = math.hypot(0.6, 1.0)


def _rod(model: dict, e: float = 0.8, **pair) -> dict:
    c = math.sqrt(0.5)
    return {
        "format": "flexmech", "version": 1,
        "nodes": [{"id": "B", "x": 0.0, "y": 0.001}, {"id": "A", "x": c, "y": 0.001 + c}],
        "links": [{"id": "rod", "kind": "rigid", "nodes": ["B", "A"], "mass": 1.0, "inertia": 1 / 12}],
        "contacts": [{"id": "B-ground", "point": {"node": "B"}, "target": {"kind": "ground_line"}, "e": e,
                      "model": model, **pair}],
        "initial_velocities": [{"link": "rod", "vx": 0.6, "vy": -1.0}],
        "solver": {"end_time": 0.03, "step": 1e-4},
    }


def _ends(results: Results) -> np.ndarray:
    """The velocities of B and A at the last frame (m/s), (vBx, vBy, vAx, vAy)."""
    last = results.frames[-1]
    return np.concatenate([last.node_v[results.layout.nodes.index(n)] for n in ("B", "A")])


def _impulse(ends: np.ndarray) -> float:
    """The total normal impulse (N s): the change of the 1 kg rod's vertical momentum."""
    return float((ends[1] + ends[3]) / 2 + 1.0)


def _impulse_model(e: float) -> np.ndarray:
    return _ends(run(_rod({"kind": "impulse"}, e=e, law="energetic")))


def _compliant(law: str, stiffness: float, e: float) -> np.ndarray:
    return _ends(run(_rod({"kind": "compliant", "law": law, "stiffness": stiffness, "exponent": 1.5}, e=e)))


def _shrinks_to_agreement(differences: list[float]) -> None:
    assert all(b < a for a, b in zip(differences, differences[1:])), differences
    assert differences[-1] < AGREE, differences


def test_hertz_approaches_the_elastic_impulse_as_its_stiffness_grows():
    rigid = _impulse_model(1.0)
    compliant = [_compliant("hertz", k, 1.0) for k in STIFFNESS]
    _shrinks_to_agreement([float(np.max(np.abs(v - rigid))) / SPEED for v in compliant])
    _shrinks_to_agreement([abs(_impulse(v) / _impulse(rigid) - 1.0) for v in compliant])


def test_flores_approaches_the_impulse_of_the_restitution_it_achieves():
    plastic = _impulse(_impulse_model(0.0))
    differences, impulses = [], []
    for k in STIFFNESS:
        v = _compliant("flores", k, 0.8)
        rigid = _impulse_model(_impulse(v) / plastic - 1.0)
        differences.append(float(np.max(np.abs(v - rigid))) / SPEED)
    _shrinks_to_agreement(differences)
    assert _impulse(v) / plastic - 1.0 == pytest.approx(0.8, abs=0.02)  # the law's c_e, nearly


def test_lagrange_agrees_with_the_plastic_impulse():
    results = run(_rod({"kind": "lagrange"}))
    rigid = _impulse_model(0.0)
    lagrange = _ends(results)
    assert np.max(np.abs(lagrange - rigid)) / SPEED < AGREE
    assert _impulse(lagrange) == pytest.approx(_impulse(rigid), rel=AGREE)
    assert normal_impulse(results) == pytest.approx(_impulse(rigid), rel=AGREE)  # the onset's, in the event log
