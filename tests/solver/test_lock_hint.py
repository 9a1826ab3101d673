"""A driven mechanism that fails at a position its links cannot pass says so and names the driver
(:mod:`solver.integration.lock_hint`), instead of advising a smaller step, which fails at the same instant."""
from __future__ import annotations

import copy

import pytest

from solver.api import simulate
from solver.integration.lock_hint import lock_hint
from solver.system.assembly import Assembly
from solver.system.compile import compile_model
from solver.system.initial import initial_state

#: a rigid four-bar that fails Grashof's condition (links 0.4, 0.4, 0.2 m between pins 0.914 m apart: no link
#: turns fully), its crank driven to 15 rad/s; drawn by the wider balance hunt (session 18, seed 13)
FOUR_BAR = {"format": "flexmech", "version": 1,
            "nodes": [{"id": "n0", "x": 0.0, "y": 0.0}, {"id": "n1", "x": 0.4, "y": 0.0},
                      {"id": "n2", "x": 0.685443, "y": -0.280218}, {"id": "n3", "x": 0.881727, "y": -0.241841}],
            "links": [{"id": "link0", "nodes": ["n0", "n1"], "kind": "rigid", "mass": 0.5},
                      {"id": "link1", "nodes": ["n1", "n2"], "kind": "rigid", "mass": 1.0},
                      {"id": "link2", "nodes": ["n2", "n3"], "kind": "rigid", "mass": 0.5}],
            "joints": [{"id": "pivot", "kind": "ground", "node": "n0"}, {"id": "far-pivot", "kind": "ground", "node": "n3"}],
            "drivers": [{"id": "motor", "kind": "speed", "link": "link0", "pivot": "n0",
                         "function": {"kind": "ramp", "t0": 0.0, "t1": 0.02, "v0": 0.0, "v1": 15.0}}],
            "solver": {"end_time": 0.04, "step": 0.0005}}

#: a crank turned at -10 rad/s whose second link's tip lies on the ground under a Lagrange pair: the crank
#: presses the tip into the ground until the links stand in line above it
PRESSED_TIP = {"format": "flexmech", "version": 1,
               "nodes": [{"id": "n0", "x": 0.0, "y": 0.0}, {"id": "n1", "x": 0.29994, "y": 0.006},
                         {"id": "n2", "x": 0.448129, "y": 0.140313}],
               "links": [{"id": "link0", "nodes": ["n0", "n1"], "kind": "rigid", "mass": 1.0},
                         {"id": "link1", "nodes": ["n1", "n2"], "kind": "rigid", "mass": 0.2}],
               "joints": [{"id": "pivot", "kind": "ground", "node": "n0"}],
               "contacts": [{"id": "tip-ground", "point": {"node": "n2"},
                             "target": {"kind": "ground_line", "x": 0.0, "y": 0.13811542732681723},
                             "mu_s": 0.0, "mu_d": 0.0, "model": {"kind": "lagrange"}}],
               "drivers": [{"id": "motor", "kind": "speed", "link": "link0", "pivot": "n0",
                            "function": {"kind": "constant", "value": -10.0}}],
               "solver": {"end_time": 0.04, "step": 0.0005}}


@pytest.mark.parametrize("doc, at, held", [(FOUR_BAR, 0.0266036, "joints and drivers"),
                                           (PRESSED_TIP, 0.022777, "joints, drivers and closed contact 'tip-ground'")],
                         ids=["four-bar", "pressed-tip"])
@pytest.mark.parametrize("fraction", [1.0, 0.25])
def test_a_driven_mechanism_at_the_end_of_its_travel_is_named(doc, at, held, fraction):
    """Newton fails at the instant the links reach the end of their travel, whatever the step (1e11 N out of
    balance); the message said 'try a smaller step' (and, with the closed pair, 'halve solver.step ... and the
    run may pass here'), which fails the same.  It now names the driver and what holds the mechanism with it."""
    model = copy.deepcopy(doc)
    model["solver"]["step"] *= fraction
    results = simulate(model)
    message = results.meta["message"]
    assert results.meta["status"] == "failed"
    assert float(message.split("t = ")[1].split(" s")[0]) == pytest.approx(at, abs=2e-6)
    assert f"the {held} held the mechanism at a position they cannot take it past" in message
    assert "driver 'motor' asked for a motion the links cannot follow" in message
    assert "try a smaller step" not in message and "halve solver.step" not in message


def test_a_driven_mechanism_along_its_travel_is_not_said_to_be_locked():
    """At its start the four-bar's joints and drivers are independent: no hint."""
    system = compile_model(copy.deepcopy(FOUR_BAR))
    assert lock_hint(system, initial_state(Assembly(system))) is None
