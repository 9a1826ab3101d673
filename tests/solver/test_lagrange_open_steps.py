"""Steps of a Lagrange-contact run taken in compiled runs while every pair is open
(:mod:`solver.integration.open_steps`): the same steps, frames, energies and events as the
steps the time loop takes one by one, to the bit."""
import numpy as np
import pytest

from solver.api import simulate
from solver.integration.free_steps import free_run
from solver.integration.newmark import NewmarkIntegrator
from solver.integration.open_steps import OpenGaps, gaps_closing
from solver.results.frame_columns import ARRAY_FIELDS
from solver.system.assembly import Assembly
from solver.system.compile import compile_model
from solver.system.initial import initial_state

from .test_lagrange_examples import example


def runs(doc, monkeypatch):
    """``doc`` run with open steps compiled and one by one: (results, results, steps the compiled runs took)."""
    taken = []
    steps = OpenGaps.steps

    def counted(self, *args):
        out = steps(self, *args)
        taken.append(out[0] - out[1])  # a step handed over is taken again by the loop's rules
        return out

    monkeypatch.setattr(OpenGaps, "steps", counted)
    compiled = simulate(doc)
    monkeypatch.setattr(OpenGaps, "serves", staticmethod(lambda contacts: False))
    return compiled, simulate(doc), sum(taken)


def assert_same_run(a, b):
    assert a.meta["status"] == b.meta["status"] == "completed"
    assert a.steps == b.steps
    assert a.events == b.events
    assert [f.energy for f in a.frames] == [f.energy for f in b.frames]
    for name in ARRAY_FIELDS:
        np.testing.assert_array_equal(a.frames.field(name), b.frames.field(name), err_msg=name)
    for key, column in a.frames.contact_rows().items():
        np.testing.assert_array_equal(column, b.frames.contact_rows()[key], err_msg=key)


@pytest.mark.parametrize("name, interval", [("bar_mass_impact_lagrange", 0.01), ("rod_floor_flexible", 2e-4),
                                            ("two_bars_impact", 4e-5)])
def test_open_steps_are_compiled_and_are_the_python_steps_to_the_bit(name, interval, monkeypatch):
    """The bar struck by a mass (a node pair, 129 of 272 steps open), the rod on the floor with
    mu = 0.8 (a ground line, sticking and slipping; 392 of 517 open) and the two bars (undamped:
    the created energy watched after each step; up to the second onset, 0.9 ms), a frame every
    few steps."""
    doc = example(name, output_interval=interval, record={"steps": True})
    if name == "two_bars_impact":
        doc["solver"]["end_time"] = 9e-4
    compiled, stepped, taken = runs(doc, monkeypatch)
    assert taken >= 0.8 * compiled.meta["free_steps"]
    assert_same_run(compiled, stepped)


def test_an_undamped_run_is_damped_from_the_same_step_when_its_energy_rises_in_a_compiled_run(monkeypatch):
    """The created-energy watch (here made to flag every state after 0.62 ms, in the two bars' open
    phase between their contacts; looking at a compiled run's states one by one, as it does where the
    pairs may store energy, not in one pass) ends a compiled run at the first step it flags: damping
    begins at the step it begins at one step at a time, and the runs stay equal to the bit."""
    from solver.integration.divergence import DivergenceWatch

    monkeypatch.setattr(DivergenceWatch, "created_energy", lambda self, st: st.t > 6.2e-4)
    monkeypatch.setattr(OpenGaps, "stores_energy", True)
    doc = example("two_bars_impact", output_interval=4e-5, end_time=9e-4, record={"steps": True})
    compiled, stepped, taken = runs(doc, monkeypatch)
    assert taken >= 0.8 * compiled.meta["free_steps"]
    assert compiled.meta["numerical_damping"] == stepped.meta["numerical_damping"]
    assert 6.2e-4 < compiled.meta["numerical_damping"]["from_s"] < 6.3e-4
    assert_same_run(compiled, stepped)


@pytest.mark.parametrize("name, gap", [("bar_mass_impact_lagrange", 0.01), ("rod_floor_flexible", 3e-4)])
def test_compiled_gaps_are_the_pairs_gaps(name, gap):
    """The compiled gap of a node pair (the striker 10 mm from the bar's end) and of a ground line
    (the rod's tip 0.3 mm above the floor) is the pair's own, to the bit."""
    system = compile_model(example(name))
    pair, q = system.contacts[0], system.q0
    assert pair.geometry(q).gap == pytest.approx(gap, rel=1e-9)
    gaps = OpenGaps(system.contacts, 1e-6)
    assert not gaps_closing(gaps.kinds, gaps.dofs, gaps.frames, q, np.nextafter(pair.geometry(q).gap, -np.inf))
    assert gaps_closing(gaps.kinds, gaps.dofs, gaps.frames, q, pair.geometry(q).gap)


def test_a_run_keeps_the_factors_of_a_nearby_step_as_a_step_does():
    """After a step of ``h``, a step of ``1.005 h`` (within NEAR_STEP of a run with onsets, as the
    predictor's cuts leave it) iterates with the same factors in a compiled run as
    :meth:`NewmarkIntegrator.step` does: no new factorisation, the same state to the bit."""
    system = compile_model(dict(example("bar_mass_impact_lagrange"), contacts=[]))
    h = system.settings["step"]
    ends = []
    for compiled in (False, True):
        asm = Assembly(system)
        integ = NewmarkIntegrator(asm, system.settings)
        integ.reuse_near_steps()
        s, _its = integ.step(initial_state(asm), h)
        count = integ.factorizations
        h2 = 1.005 * h
        if compiled:
            times = np.array([s.t + h2])
            targets, accs = system.constraints.motion_at(times)
            s, *_rest = free_run(integ, s, h2, times, targets, accs, (np.zeros(0, int), np.zeros(0, int)))
        else:
            s, _its = integ.step(s, h2)
        assert integ.factorizations == count
        ends.append(s)
    for name in ("q", "v", "a", "a_pseudo", "lam"):
        np.testing.assert_array_equal(getattr(ends[0], name), getattr(ends[1], name), err_msg=name)
