"""Steps of a run of dry compliant circle pairs taken in compiled runs while every pair is open
(:mod:`solver.integration.open_circles`): the same steps, frames, energies, contact columns,
events and metadata as the steps the time loop takes one by one, to the bit, through free flight
into contact and out of it (the clearance slider-cranks' first 3 ms: four to five impacts)."""
from __future__ import annotations

import random

import pytest

from solver.api import simulate
from solver.contact.hermite_gap import hermite_floor, hermite_min
from solver.integration.open_circles import OpenCircles
from solver.model.io import examples_dir, load_model

from .test_lagrange_open_steps import assert_same_run


def clearance(name: str, end_time: float = 3e-3, **solver) -> dict:
    doc = load_model(examples_dir() / f"slider_crank_clearance_{name}.json")
    doc["solver"].update(end_time=end_time, record={"steps": True}, **solver)
    return doc


def runs(doc: dict, monkeypatch, margin: float | None = None) -> tuple:
    """``doc`` run with open steps compiled and one by one: (results, results, steps the compiled
    runs took, steps they handed over); ``margin``: the compiled runs hand over every step whose
    Hermite gap may come within it (m) of zero."""
    taken, handed = [], []
    steps = OpenCircles.steps

    def counted(self, *args):
        if margin is not None:
            self.margin = margin
        out = steps(self, *args)
        taken.append(out[0] - out[1])  # a step handed over is taken again by the loop's rules
        handed.append(out[1])
        return out

    monkeypatch.setattr(OpenCircles, "steps", counted)
    compiled = simulate(doc)
    monkeypatch.setattr(OpenCircles, "serves", staticmethod(lambda contacts: False))
    return compiled, simulate(doc), sum(taken), sum(handed)


@pytest.mark.parametrize("name, interval", [("lankarani_nikravesh", None), ("hertz", None), ("friction_010", 5e-5)])
def test_open_circle_steps_are_compiled_and_are_the_python_steps_to_the_bit(name, interval, monkeypatch):
    """L-N and Hertz with a frame at every step (gathered in the compiled runs), c_f = 0.10 with a
    frame every 50 us; undamped, the crank driven: the created-energy watch looks at every step."""
    doc = clearance(name, **({} if interval is None else {"output_interval": interval}))
    compiled, stepped, taken, _handed = runs(doc, monkeypatch)
    assert compiled.meta["compliant_contacts"]["B-clearance"]["impacts"] >= 4
    assert taken >= 0.6 * compiled.meta["free_steps"]
    assert_same_run(compiled, stepped)


def test_steps_handed_over_are_taken_by_the_loop_as_its_own(monkeypatch):
    """With the hand-over margin raised to 0.1 mm (a fifth of the clearance) many steps end their
    runs and are handed to the loop as first attempts: the run is the same to the bit."""
    compiled, stepped, taken, handed = runs(clearance("hertz"), monkeypatch, margin=1e-4)
    assert handed >= 5 and taken >= 100
    assert_same_run(compiled, stepped)


def test_the_energy_watch_sees_every_step_with_its_ledger_and_damps_from_the_same_step(monkeypatch):
    """The created-energy watch looks at every step's end with the energy balance booked to it (the
    drivers' work of the steps of a compiled run booked after it, set to each step's while the watch
    looks): the same balances at the same times as one step at a time.  Made to flag every state
    after 1.6 ms, inside a free flight of the Hertz joint taken in one compiled run, it ends the run
    at the first step it flags: damping begins where it begins one step at a time."""
    from solver.integration.divergence import DivergenceWatch

    seen = []

    def watch(self, st):
        seen.append((st.t, self.balance(st)))
        return st.t > 1.6e-3

    monkeypatch.setattr(DivergenceWatch, "created_energy", watch)
    compiled, stepped, taken, _handed = runs(clearance("hertz"), monkeypatch)
    assert taken >= 100
    second = next(i for i in range(1, len(seen)) if seen[i][0] < seen[i - 1][0])  # the run one step at a time
    looks = [[x for i, x in enumerate(part) if not i or x != part[i - 1]] for part in (seen[:second], seen[second:])]
    assert looks[0] == looks[1]  # (a compiled run's flagged state is looked at again by the loop)
    assert compiled.meta["numerical_damping"] == stepped.meta["numerical_damping"]
    assert 1.6e-3 < compiled.meta["numerical_damping"]["from_s"] < 1.62e-3
    assert_same_run(compiled, stepped)


def test_the_hermite_floor_bounds_the_hermite_gap():
    """The bound the compiled runs hand over by is never above the least value of the cubic
    Hermite gap (:func:`hermite_min`) that the loop's contact test reads."""
    rng = random.Random(28)
    for _ in range(2000):
        ends = [rng.uniform(-1.0, 1.0) for _ in range(4)]
        assert hermite_floor(*ends) <= hermite_min(*ends)[1] + 1e-15


def test_open_runs_look_at_their_steps_in_compiled_code(monkeypatch):
    """The energy guard, the created-energy watch and the frames' contact columns of the steps the
    open runs take are compiled (solver/integration/open_looks.py): over the Hertz example's first
    3 ms (about 280 steps with the pair open, 8 impacts) the guard and the frames' contact rows in
    Python look at a handful of states, not at every open step (the runs' results are the loop's:
    the tests above)."""
    from solver.contact.tracker import ContactTracker
    from solver.results.outputs import OutputBuilder

    calls = []
    for cls, name in ((OutputBuilder, "spurious_growth"), (ContactTracker, "frame_row")):
        looked = getattr(cls, name)
        monkeypatch.setattr(cls, name, lambda self, *args, _looked=looked: calls.append(1) or _looked(self, *args))
    res = simulate(clearance("hertz"))
    assert res.meta["free_steps"] > 250
    assert len(calls) < 0.1 * res.meta["free_steps"]
