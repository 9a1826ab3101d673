"""The energies the compiled runs of Lagrange steps write at each step's end
(:mod:`solver.integration.energy_screen`), and the created-energy watch that reads them in the run:
the loop's numbers to the bit, its flag at the loop's step."""
import numpy as np
import pytest

from solver.api import simulate
from solver.integration import compiled_runs, divergence, open_steps
from solver.integration.energy_screen import WATCHED
from solver.integration.closed_steps import ClosedRows
from solver.integration.open_steps import OpenGaps
from solver.system.assembly import Assembly
from solver.system.compile import compile_model

from .test_lagrange_examples import example
from .test_lagrange_open_steps import assert_same_run


def undamped(name: str, **solver) -> dict:
    """The example ``name`` without its tau: numerical damping left to the created-energy watch."""
    doc = example(name, record={"steps": True}, **solver)
    doc["solver"].pop("tau", None)
    return doc


@pytest.mark.parametrize("name, solver", [("bar_mass_impact_lagrange", {"output_interval": 0.01, "end_time": 0.35}),
                                          ("two_bars_impact", {"output_interval": 4e-5, "end_time": 6e-4})])
def test_the_runs_energies_are_the_loops_energy_terms_to_the_bit(name, solver, monkeypatch):
    """At the end of every step of the open and closed runs of the undamped bar struck by a mass (0.35 s:
    both open and in contact) and of the two bars (0.6 ms, the first contact), the kinetic, strain and
    potential energy the run wrote are those of the loop's :meth:`~solver.results.outputs.OutputBuilder.energy_terms`
    (:meth:`Assembly.energies`) at its recorded state, to the bit."""
    doc = undamped(name, **solver)
    asm = Assembly(compile_model(doc))
    run, looked = compiled_runs.free_run, []

    def recorded_run(integ, s, h, times, targets, accs, drivers, record=False, gaps=None):
        new, iterations, powers, failure, states = run(integ, s, h, times, targets, accs, drivers, True, gaps)
        if gaps is not None:
            looked.append((states[0].copy(), states[1].copy(), np.array(gaps.run_terms(len(iterations))).T))
        return new, iterations, powers, failure, states if record else None

    monkeypatch.setattr(compiled_runs, "free_run", recorded_run)
    assert simulate(doc).meta["status"] == "completed"
    assert sum(len(q) for q, _v, _terms in looked) > 100
    for q, v, terms in looked:
        for k in range(len(q)):
            assert tuple(terms[k]) == asm.energies(q[k], v[k])


def test_the_watch_in_the_run_flags_the_step_the_loop_flags(monkeypatch):
    """The undamped bar struck by a mass with the watch's onset lowered to 1e-10 of the energy in play
    (its balance then rises so far at 0.39 s, in a run of closed steps, with one frame at the end: steps cut to
    land on frames every 10 ms move it to 0.03 s, in both paths alike): the compiled run ends at the step
    the watch flags, the loop switches numerical damping on from it, and the run's steps, frames,
    energies and events are those of the loop that takes its steps one by one, to the bit."""
    monkeypatch.setattr(divergence, "DAMPING_ONSET", 1e-10)
    monkeypatch.setattr(open_steps, "DAMPING_ONSET", 1e-10)
    doc = undamped("bar_mass_impact_lagrange", output_interval=0.45, end_time=0.45)  # no step cut to land on a frame
    endings, ended_by = [], OpenGaps.ended_by

    def ending(self, run):
        endings.append(run[1])
        return ended_by(self, run)

    monkeypatch.setattr(OpenGaps, "ended_by", ending)
    compiled = simulate(doc)
    assert endings.count(WATCHED) == 1
    monkeypatch.setattr(OpenGaps, "serves", staticmethod(lambda contacts: False))
    stepped = simulate(doc)
    assert compiled.meta["numerical_damping"] == stepped.meta["numerical_damping"]
    assert 0.39 < compiled.meta["numerical_damping"]["from_s"] < 0.391
    assert_same_run(compiled, stepped)


@pytest.mark.parametrize("name, solver", [("bar_mass_impact_lagrange", {"output_interval": 0.01}),
                                          ("two_bars_impact", {"output_interval": 1e-4})])
def test_a_releases_handed_step_and_retake_keep_the_energies_the_run_found(name, solver, monkeypatch):
    """A closed run that hands over the step at whose end a pair releases and takes it again to the release
    (:mod:`solver.integration.release_landing`: both releases of the bar struck by a mass and of the two bars)
    leaves the energies it found of both ends (the screen's of the handed step, the retake's its own) to the
    loop's energy guard, which looks at both next (:meth:`~solver.results.outputs.OutputBuilder.spurious_growth`):
    :meth:`Assembly.energies` at those states, to the bit, not computed again."""
    ended, found = ClosedRows.ended, []

    def remembered(self, new, failure, taken):
        new, failure = ended(self, new, failure, taken)
        if self.retaken is not None:
            memo = {id(st): terms for st, key, terms in self.watch.out._memo if key == "energy"}
            for st in (failure[0], self.retaken[2]):
                found.append((memo.get(id(st)), self.contacts.asm.energies(st.q, st.v, st.t)))
        return new, failure

    monkeypatch.setattr(ClosedRows, "ended", remembered)
    assert simulate(example(name, **solver)).meta["status"] == "completed"
    assert len(found) == 4
    for terms, energies in found:
        assert terms == (*energies, 0.0)


def test_the_loops_looks_at_a_release_compute_no_energy(monkeypatch):
    """The steps the loop takes while a pair is closed (the bar struck by a mass with one frame, at its end: each
    release, handed over by the closed run with its retake) look at energies the run found (the guard at both
    attempts, with their powers, from the outputs' memory): :meth:`Assembly.energies` is not called in them
    (on main, 6 times)."""
    from solver.integration.time_loop import _Loop

    step, energies, inside, computed = _Loop._contact_step, Assembly.energies, [False], []

    def contact_step(self, *args):
        inside[0] = self.contacts.closed()
        try:
            return (yield from step(self, *args))
        finally:
            inside[0] = False

    def counted(self, *args):
        computed.append(inside[0])
        return energies(self, *args)

    monkeypatch.setattr(_Loop, "_contact_step", contact_step)
    monkeypatch.setattr(Assembly, "energies", counted)
    result = simulate(example("bar_mass_impact_lagrange", output_interval=0.6))
    assert sum(e["kind"] == "separation" for e in result.events) == 2
    assert computed and not any(computed)
