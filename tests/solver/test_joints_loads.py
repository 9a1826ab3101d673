"""Joints, gravity and prescribed motion against closed forms."""
import math

import numpy as np
import pytest

from solver.api import simulate, static_equilibrium
from solver.errors import SolverError

from .builders import beam_model


def test_free_body_falls_with_gravity_exactly():
    """Newmark is exact for constant acceleration: y = y0 - g t^2 / 2."""
    doc = {
        "format": "flexmech", "version": 1,
        "nodes": [{"id": "ref", "x": 0.0, "y": 0.0}],
        "bodies": [{"id": "stone", "x": 1.0, "y": 2.0, "mass": 0.5}],
        "initial_velocities": [{"body": "stone", "vx": 3.0}],
        "gravity": {"y": -9.81},
        "solver": {"end_time": 0.5, "step": 0.01},
    }
    res = simulate(doc)
    t = res.time
    xy = res.stack("node_xy")[:, res.node_index("stone")]
    np.testing.assert_allclose(xy[:, 0], 1.0 + 3.0 * t, atol=1e-12)
    np.testing.assert_allclose(xy[:, 1], 2.0 - 0.5 * 9.81 * t**2, atol=1e-12)
    E = res.energy("kinetic") + res.energy("potential")
    assert np.ptp(E) < 1e-9 * E.max()


def test_rigid_pendulum_small_oscillation_period():
    """Uniform bar pinned at one end: T = 2 pi sqrt(2 L / (3 g)) for small amplitude."""
    L, g, amp = 1.0, 9.81, 0.01
    doc = {
        "format": "flexmech", "version": 1,
        "nodes": [{"id": "O", "x": 0.0, "y": 0.0}, {"id": "P", "x": L * math.sin(amp), "y": -L * math.cos(amp)}],
        "links": [{"id": "bar", "kind": "rigid", "nodes": ["O", "P"], "mass": 1.0}],
        "joints": [{"id": "pin", "kind": "ground", "node": "O"}],
        "gravity": {"y": -g},
        "solver": {"end_time": 4.0, "step": 1e-3},
    }
    res = simulate(doc)
    x = res.stack("node_xy")[:, res.node_index("P"), 0]
    t = res.time
    up = np.flatnonzero((x[:-1] < 0) & (x[1:] >= 0))
    crossings = t[up] - x[up] * (t[up + 1] - t[up]) / (x[up + 1] - x[up])
    period = np.diff(crossings).mean()
    assert period == pytest.approx(2 * math.pi * math.sqrt(2 * L / (3 * g)), rel=1e-3)


def test_weld_joins_two_links_into_one_beam():
    """Two flexible links welded at mid-length carry a tip load like one cantilever."""
    L, EI, P = 1.0, 100.0, 1e-3
    doc = beam_model(L=L, EI=EI, n=5, loads=[{"node": "tip", "fy": -P}])
    doc["nodes"].insert(1, {"id": "mid", "x": L / 2, "y": 0.0})
    section = doc["links"][0]["section"]
    doc["links"] = [
        {"id": "a", "kind": "flexible", "nodes": ["root", "mid"], "section": section, "mesh": {"elements": 5}},
        {"id": "b", "kind": "flexible", "nodes": ["mid", "tip"], "section": section, "mesh": {"elements": 5}},
    ]
    doc["joints"].append({"id": "w", "kind": "weld", "node": "mid", "links": ["a", "b"]})
    eq = static_equilibrium(doc, load_steps=1)
    assert -eq.node_xy("tip")[1] == pytest.approx(P * L**3 / (3 * EI), rel=5e-3)
    assert eq.rotation("mid", "a") == eq.rotation("mid", "b")
    doc["joints"].pop()  # a pin there: a mechanism, no static equilibrium
    with pytest.raises(SolverError, match="not restrained"):
        static_equilibrium(doc, load_steps=1)


@pytest.mark.parametrize("inertia", [0.0, 0.3])
def test_prescribed_displacement_and_its_reaction_force(inertia):
    """A 2 kg mass driven along x by A sin(w t): the driver force is m a = -m A w^2 sin(w t).  A
    rotary inertia on the lone node (no link turns it, so it has no rotation) changes nothing."""
    m, A, f = 2.0, 0.01, 5.0
    w = 2 * math.pi * f
    doc = {
        "format": "flexmech", "version": 1,
        "nodes": [{"id": "n", "x": 0.0, "y": 0.0}],
        "masses": [{"id": "m", "node": "n", "mass": m, "inertia": inertia}],
        "joints": [],
        "drivers": [{"id": "shaker", "kind": "displacement", "node": "n", "direction": "x",
                     "function": {"kind": "sine", "amplitude": A, "frequency": f}}],
        "solver": {"end_time": 0.4, "step": 1e-4, "output_interval": 1e-3},
    }
    res = simulate(doc)
    t = res.time
    x = res.stack("node_xy")[:, 0, 0]
    np.testing.assert_allclose(x, A * np.sin(w * t), atol=1e-12)
    force = res.stack("driver_reaction")[:, 0]
    np.testing.assert_allclose(force, -m * A * w * w * np.sin(w * t), atol=2e-3 * m * A * w * w)
