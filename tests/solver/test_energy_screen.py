"""The energy screen of compiled runs of open and closed Lagrange steps
(:mod:`solver.integration.energy_screen`): the spurious-root guard's look taken inside the run, so
the run records no states, with the steps, frames and cuts of the guard that screened the recorded
states afterwards, to the bit."""
import numpy as np
import pytest

from solver.api import simulate
from solver.integration import compiled_runs
from solver.integration.energy_screen import ON, WATCH, run_energies
from solver.integration.open_steps import OpenGaps
from solver.system.assembly import Assembly
from solver.system.compile import compile_model
from solver.system.initial import initial_state

from ..oracles.test_struck_links import getting_started
from .test_lagrange_examples import example
from .test_lagrange_open_steps import assert_same_run


@pytest.mark.parametrize("name", ["bar_mass_impact_lagrange", "rod_floor_flexible"])
def test_the_runs_energies_are_the_assemblys_to_the_bit(name):
    """The kinetic, strain and potential energy a run writes at a step's end are those of
    :meth:`Assembly.energies`, to the bit, and the magnitude of their terms bounds them (to round-off), on random
    states of the bar struck by a mass and of the rod on the floor (gravity: the potential from the
    sketched configuration)."""
    asm = Assembly(compile_model(example(name)))
    s, sys = initial_state(asm), asm.sys
    screen = (np.zeros(5), sys.q0, np.empty((1, 4)))
    system = (sys.mass_diag, 0.0, 0.0, asm.form, sys.elem_dofs, asm.secs, asm.Mbar)
    rng = np.random.default_rng(5)
    for _ in range(50):
        q = s.q + 1e-3 * rng.standard_normal(s.q.shape)
        v = rng.standard_normal(s.v.shape)
        size = run_energies(screen, 0, np.empty(sys.beams.count), q, v, sys.gravity, system)
        assert tuple(screen[2][0, :3]) == asm.energies(q, v)
        assert abs(sum(asm.energies(q, v))) <= (1.0 + 1e-12) * size


def runs(doc, monkeypatch):
    """``doc`` run with the screen and with the guard's look at the recorded states (the screen
    and the watch off in the runs, their energies written): (results, results, whether a screened run
    recorded its states, its steps cut by the screen)."""
    recorded, cut = [], []
    run, checked = compiled_runs.free_run, OpenGaps.screen_checked

    def watched_run(integ, s, h, times, targets, accs, drivers, record=False, gaps=None):
        recorded.append(record and gaps is not None)
        return run(integ, s, h, times, targets, accs, drivers, record, gaps)

    def counted(self, start, times, steps, guard, watch, out):
        kept = checked(self, start, times, steps, guard, watch, out)
        cut.append(len(steps[1]) - len(kept[1]))
        return kept

    monkeypatch.setattr(compiled_runs, "free_run", watched_run)
    monkeypatch.setattr(OpenGaps, "screen_checked", counted)
    screened, recorded_any, cut_steps = simulate(doc), any(recorded), sum(cut)
    screening = OpenGaps.screening

    def unscreened(self, guard, watch, out, steps):  # the energies written, the looks left to the loop
        screening(self, guard, watch, out, steps)
        self.screen[0][[ON, WATCH]] = 0.0
        return False

    monkeypatch.setattr(OpenGaps, "screening", unscreened)
    return screened, simulate(doc), recorded_any, cut_steps


@pytest.mark.parametrize("name, cuts", [("bar_mass_impact_lagrange", 0), ("getting_started", 1)])
def test_screened_runs_record_no_states_and_are_the_guarded_runs_to_the_bit(name, cuts, monkeypatch):
    """The bar struck by a mass (tau 0.51, frictionless: nothing but the guard asked its runs to
    record every state) and the Getting Started rod under the Lagrange model at tau 0.51, whose
    open run took a spurious root at 35.8 ms (11.8 J to 99.8 J), cut: screened in the compiled runs,
    no run records its states, and the steps, frames, energies and events are those of the guard
    that screened the recorded states, to the bit."""
    if name == "getting_started":
        doc = getting_started("lagrange")
        doc["solver"] = {"end_time": 0.05, "tau": 0.51, "output_interval": 0.005, "record": {"steps": True}}
    else:
        doc = example(name, record={"steps": True}, output_interval=0.01)
    screened, guarded, recorded, cut = runs(doc, monkeypatch)
    assert not recorded
    assert cut == cuts
    assert_same_run(screened, guarded)
