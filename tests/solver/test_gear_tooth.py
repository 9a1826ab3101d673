"""The gear-tooth example (Amirouche & Xie fig. 2, eqs. 22-25): a tapered Timoshenko cantilever
on a spinning hub under a mesh force that travels along the tooth."""
from __future__ import annotations

import copy
import math

import numpy as np
import pytest
from scipy.integrate import quad

from solver.analysis.static import static_equilibrium
from solver.api import load_model, simulate
from solver.model.io import examples_dir

EXAMPLE = examples_dir() / "gear_tooth.json"
P, L, R_ROOT, B, E, NU, RHO = 2000.0, 0.009, 0.045, 0.02, 2e11, 0.3, 7800.0


def depth(x: float) -> float:
    """Tooth thickness, m: 8 mm at the root to 3 mm at the tip."""
    return 0.008 - 0.005 * x / L


@pytest.fixture(scope="module")
def doc() -> dict:
    return load_model(EXAMPLE)


def test_the_mesh_force_travels_along_the_turning_tooth(doc):
    """The run completes; the force acts from s = 8.5 mm to 2 mm over the mesh period, then
    leaves the tooth; the hub turns by 500 rad/s x 1 ms = 0.5 rad."""
    res = simulate(doc)
    assert res.completed, res.meta["message"]
    t = np.array([f.time for f in res.frames])
    s = np.array([f.moving_s[0] for f in res.frames])
    F_n = np.array([f.moving_force[0, 0] for f in res.frames])
    meshing = t < 5e-4
    assert s[0] == pytest.approx(0.0085) and s[meshing][-1] > 0.002
    assert np.all(np.abs(F_n[meshing]) > 0.9 * P) and np.all(F_n[t > 5.01e-4] == 0.0)
    assert res.frames[-1].driver_angle[0] == pytest.approx(0.5, rel=1e-9)
    assert res.frames[-1].node_xy[res.node_index("tip")] == pytest.approx(
        [0.054 * math.cos(0.5), 0.054 * math.sin(0.5)], abs=1e-5)


def test_static_tip_deflection_matches_tapered_timoshenko_theory(doc):
    """At rest with the force at the tip: delta = P int (L-x)^2/EI(x) dx + P int dx/(k G A(x))
    = 5.617 + 2.754 = 8.371 um (a third of it shear); within 0.5 % with 10 elements of
    mid-point sections (measured -0.25 %)."""
    model = copy.deepcopy(doc)
    model["drivers"][0]["function"]["value"] = 0.0
    model["moving"][0]["position"] = {"kind": "constant", "value": L}
    G = E / (2 * (1 + NU))
    bending = P * quad(lambda x: (L - x) ** 2 / (E * B * depth(x) ** 3 / 12), 0, L)[0]
    shear = P * quad(lambda x: 1 / (5 / 6 * G * B * depth(x)), 0, L)[0]
    assert bending + shear == pytest.approx(8.371e-6, rel=1e-3)
    tip = static_equilibrium(model).node_xy("tip")
    assert -tip[1] == pytest.approx(bending + shear, rel=5e-3)


def _settled_deflection(doc: dict, omega: float) -> float:
    """Tip deflection (m) across the hub's radial line under a 2 kN follower tip load, spun at
    ``omega`` (rad/s) and settled by Rayleigh damping."""
    model = copy.deepcopy(doc)
    model["drivers"][0]["function"]["value"] = omega
    model["moving"] = []
    model["loads"] = [{"id": "tip-load", "node": "tip", "link": "tooth", "fy": -P, "follower": True,
                       "function": {"kind": "ramp", "t1": 1e-4}}]
    model["damping"] = {"beta": 2e-6}
    model["solver"].update(end_time=4e-4, step=5e-7)
    res = simulate(model)
    assert res.completed, res.meta["message"]
    last = res.frames[-1]
    x, y = last.node_xy[res.node_index("tip")]
    a = last.driver_angle[0]
    return -math.sin(a) * x + math.cos(a) * y


def test_spinning_stiffens_the_tooth(doc):
    """Centrifugal tension N(x) = rho w^2 int_x^L A (r + xi) dxi stiffens the tooth more than the
    in-plane spin softening (-rho A w^2) weakens it: at 30 000 rad/s (a tenth of its first
    frequency) the settled tip deflection under a follower load shrinks (measured -2.5 %);
    the first-order estimate from the static shape, int N w'^2 - w^2 int rho A w^2, gives
    -3.6 %: the sign and order agree, the magnitude is short of linear theory by a factor
    ~0.65 not explained yet (stiffness damping in a spinning link, 1 % centrifugal stretch:
    docs/validation.md)."""
    at_rest, spun = _settled_deflection(doc, 0.0), _settled_deflection(doc, 3e4)
    assert at_rest == pytest.approx(-8.35e-6, rel=5e-3)
    assert -0.036 < spun / at_rest - 1.0 < -0.01
