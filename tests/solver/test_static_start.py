"""A run that starts from the static equilibrium (``solver.initial_shape = "static"``).

A cantilever bent into a circular arc by a tip torque M = EI kappa starts in that shape at rest:
its tip turned by kappa L and on the arc, and nothing to ring at tau = 0.5.  Ramped on from the
sketched shape instead (over 0.1 s), the ramp's kinks leave the link's stiffest modes, overdamped
by the stiffness-proportional damping, alternating from step to step (amplification
-1 + 4 / (beta omega^2 h) per step): tip accelerations of 1.2e3 m/s^2 after the first step and
still +-4 m/s^2 half a second later (tests/solver/test_moving_curved.py, where a moving mass read
them)."""
from __future__ import annotations

import numpy as np
import pytest

from solver.api import ModelError, simulate
from solver.errors import SolverError

E, L, B, H, KAPPA = 2e11, 1.0, 0.05, 0.2, 0.5
EI = E * B * H**3 / 12


def cantilever(**solver) -> dict:
    """A steel cantilever of 10 elements along x, clamped at A, a torque EI kappa at its tip B."""
    return {"format": "flexmech", "version": 1, "name": "bent cantilever",
            "materials": [{"id": "steel", "E": E, "density": 7850.0, "poisson": 0.3}],
            "nodes": [{"id": "A", "x": 0.0, "y": 0.0}, {"id": "B", "x": L, "y": 0.0}],
            "links": [{"id": "beam", "kind": "flexible", "nodes": ["A", "B"], "mesh": {"elements": 10},
                       "section": {"kind": "rectangle", "material": "steel", "b": B, "h": H}}],
            "joints": [{"id": "clamp", "kind": "fixed", "node": "A"}],
            "loads": [{"id": "moment", "node": "B", "torque": EI * KAPPA}],
            "solver": {"end_time": 0.02, "step": 1e-3, "initial_shape": "static", **solver}}


def test_a_cantilever_bent_by_its_tip_torque_starts_on_the_arc_at_rest():
    """Tip rotation kappa L = 0.5 rad and tip on the arc (sin(kappa L), 1 - cos(kappa L)) / kappa
    (measured: exact, 3.1e-9 m), and the accelerations stay below 1e-5 m/s^2 over 20 steps at
    tau = 0.5 (measured 1.4e-6 m/s^2, the static Newton's tolerance; the torque ramped on over
    0.1 s from the sketched shape instead: 4.4e3 m/s^2)."""
    res = simulate(cantilever())
    assert res.completed, res.meta["message"]
    first = res.frames[0]
    assert first.rot[res.layout.rotations.index(("B", "beam"))] == pytest.approx(KAPPA * L, abs=1e-12)
    arc = np.array([np.sin(KAPPA * L), 1.0 - np.cos(KAPPA * L)]) / KAPPA
    assert np.abs(np.asarray(first.node_xy[res.layout.nodes.index("B")]) - arc).max() < 1e-8
    assert max(np.abs(f.node_a).max() for f in res.frames) < 1e-5


def test_a_mechanism_has_no_static_shape_and_the_message_names_the_field():
    """A pinned link under a torque turns freely: no static equilibrium, said for the field."""
    doc = cantilever()
    doc["joints"][0]["kind"] = "pin"
    with pytest.raises(SolverError, match=r"solver\.initial_shape = static: the structure is not restrained"):
        simulate(doc)


def test_a_moving_mass_on_its_link_at_the_start_is_refused_by_name():
    """The static shape holds no moving rows: a mass on the link at t = 0 is refused, named (by its
    field, as ``validate`` names it: the API refuses what ``validate`` refuses)."""
    doc = cantilever()
    doc["moving"] = [{"id": "cart", "kind": "mass", "link": "beam", "mass": 1.0,
                      "position": {"kind": "table", "t": [0.0, 1.0], "v": [0.3, 1.3]}}]
    with pytest.raises(ModelError, match=r"moving\[cart\]\.position: the mass is on its link at t = 0"):
        simulate(doc)


def test_validate_refuses_what_a_static_start_cannot_run():
    """What ``validate`` accepts, ``run`` runs: a moving support, and a mass on its link at t = 0,
    under a static start are problems of their fields; a mass starting before the link is not."""
    from solver.model.validate import validate

    doc = cantilever()
    doc["moving"] = [{"id": "cart", "kind": "mass", "link": "beam", "mass": 1.0,
                      "position": {"kind": "table", "t": [0.0, 1.0], "v": [0.3, 1.3]}},
                     {"id": "roller", "kind": "support", "link": "beam", "position": {"kind": "linear", "rate": 1.0}},
                     {"id": "early", "kind": "mass", "link": "beam", "mass": 1.0,
                      "position": {"kind": "free", "s0": -0.1, "speed0": 1.0}}]
    problems = {p.path: p.message for p in validate(doc)}
    assert set(problems) == {"moving[cart].position", "moving[roller]"}, problems
    assert "s = 0.3 m" in problems["moving[cart].position"] and "initial_shape" in problems["moving[roller]"]
    doc["solver"]["initial_shape"] = "sketched"
    assert validate(doc) == []
