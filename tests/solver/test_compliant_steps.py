"""The compiled parts of a step of dry circle pairs (:mod:`solver.contact.circle_pairs`, the energy
guard's and the ledger's contact terms) take the run of the general path in Python to the bit:
every frame column, energy, event and step record of the first millisecond of clearance
slider-cranks (the flexible rod's first 0.3 ms), through their first impacts, with friction and
without."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from solver.api import simulate
from solver.model.io import examples_dir, load_model

from .test_lagrange_open_steps import assert_same_run as same_columns


def first_impacts(name: str, end_time: float):
    doc = load_model(examples_dir() / f"slider_crank_clearance_{name}.json")
    doc["solver"]["end_time"] = end_time
    return simulate(doc)


def assert_same_run(fast, general) -> None:
    assert fast.events == general.events
    assert fast.steps == general.steps
    timeless = lambda meta: {k: v for k, v in meta.items() if "wall" not in k}  # noqa: E731
    assert timeless(fast.meta) == timeless(general.meta)
    assert len(fast.frames) == len(general.frames)
    for a, b in zip(fast.frames, general.frames):
        for f in dataclasses.fields(a):
            x, y = getattr(a, f.name), getattr(b, f.name)
            if isinstance(x, dict):
                assert x == y, f.name
            else:
                np.testing.assert_array_equal(x, y, err_msg=f.name)


@pytest.mark.parametrize("name, end_time", [("lankarani_nikravesh", 1e-3), ("hertz", 1e-3), ("friction_010", 1e-3),
                                            ("flexible", 3e-4)])
def test_compiled_circle_steps_are_the_python_path_to_the_bit(name, end_time, monkeypatch):
    from solver.contact import compliant

    fast = first_impacts(name, end_time)
    monkeypatch.setattr(compliant, "compiled_circle", lambda pair, filmed: False)  # every pair in Python
    general = first_impacts(name, end_time)
    assert fast.meta["compliant_contacts"]["B-clearance"]["impacts"] >= 1
    assert_same_run(fast, general)


@pytest.mark.parametrize("name, interval", [("lankarani_nikravesh", 0.0), ("hertz", 0.0), ("friction_010", 0.0),
                                            ("flexible", 0.0), ("friction_010", 5e-5)])
def test_closed_steps_compiled_are_the_loop_to_the_bit(name, interval, monkeypatch):
    """The compiled run of closed compliant steps (solver/integration/compliant_steps.py) against the
    loop taking every step itself, over the first impacts, a frame and a step record at every step (the
    flexible rod: four beam elements), or a frame every 50 µs (the impulses summed over the steps between)."""
    from solver.integration import closed_circles

    def recorded():
        doc = load_model(examples_dir() / f"slider_crank_clearance_{name}.json")
        doc["solver"].update(end_time=1e-3, output_interval=interval, record={"steps": True})
        return simulate(doc)

    compiled = []
    run = closed_circles.ClosedCircles.run
    monkeypatch.setattr(closed_circles.ClosedCircles, "run",
                        lambda self, *args: compiled.append((out := run(self, *args))[2]) or out)
    fast = recorded()
    assert sum(compiled) > 0.6 * fast.meta["impact_steps"] > 100  # most closed steps taken compiled (188 ... of 1 ms)
    monkeypatch.setattr(closed_circles.ClosedCircles, "serves", staticmethod(lambda *args: False))
    general = recorded()
    assert len(general.steps) == general.meta["steps"]
    assert_same_run(fast, general)


@pytest.mark.parametrize("name", ["hertz", "friction_010"])
def test_contact_starts_and_separations_are_compiled_and_the_loop_to_the_bit(name, monkeypatch):
    """The steps in which an open pair is live (the approach), the contact starts (the onset located by
    the Hermite gap, the predicted peak from the effective mass 1/D_nn) and the separations are taken
    in the compiled runs (solver/integration/circle_events.py): over the first 3 ms (8 impacts) the
    loop takes fewer steps one by one than there are impacts (each start and each separation were the
    loop's before), and every frame, event, step record and metadata entry is the loop's."""
    from solver.integration import closed_circles, time_loop

    def recorded():
        doc = load_model(examples_dir() / f"slider_crank_clearance_{name}.json")
        doc["solver"].update(end_time=3e-3, record={"steps": True})
        return simulate(doc)

    stepped = []
    step = time_loop._Loop._contact_step
    monkeypatch.setattr(time_loop._Loop, "_contact_step", lambda self, *args: stepped.append(1) or step(self, *args))
    fast = recorded()
    impacts = fast.meta["compliant_contacts"]["B-clearance"]["impacts"]
    assert impacts >= 8 and len(stepped) < impacts
    monkeypatch.setattr(closed_circles.ClosedCircles, "serves", staticmethod(lambda *args: False))
    general = recorded()
    assert len(stepped) > 2 * impacts + 50  # the loop's steps: every start, separation and approach
    assert_same_run(fast, general)


@pytest.mark.parametrize("law, params", [("lankarani_nikravesh", {}), ("kelvin_voigt", {"stiffness": 1.5e8})])
def test_two_clearance_joints_with_their_own_laws_are_the_loop_to_the_bit(law, params, monkeypatch):
    """The Hertz example with a second clearance joint between crank and rod (Lankarani-Nikravesh, or
    Kelvin-Voigt, whose loading steps to its maximum compression are the loop's): one pair's contact
    starts and separations while the other is closed, open or live, in the compiled runs, are the
    loop's (both kinds of compiled runs switched off) to the bit."""
    import copy

    from solver.integration import closed_circles
    from solver.integration.open_circles import OpenCircles

    doc = load_model(examples_dir() / "slider_crank_clearance_hertz.json")
    joint = copy.deepcopy(next(j for j in doc["joints"] if j["id"] == "B-clearance"))
    joint.update(id="A-clearance", node="A", links=["crank"], law=law, **params)
    doc["joints"].append(joint)
    doc["solver"].update(end_time=4e-3, record={"steps": True})
    fast = simulate(copy.deepcopy(doc))
    assert min(c["impacts"] for c in fast.meta["compliant_contacts"].values()) >= 5
    monkeypatch.setattr(closed_circles.ClosedCircles, "serves", staticmethod(lambda *args: False))
    monkeypatch.setattr(OpenCircles, "serves", staticmethod(lambda *args: False))
    general = simulate(doc)
    same_columns(fast, general)  # frames as columns: two pairs' contact values
    timeless = lambda meta: {k: v for k, v in meta.items() if "wall" not in k}  # noqa: E731
    assert timeless(fast.meta) == timeless(general.meta)
