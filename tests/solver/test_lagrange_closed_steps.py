"""Steps of a Lagrange-contact run taken in compiled runs while the closed pairs keep their modes
(:mod:`solver.integration.closed_steps`): the same steps, frames, energies, events and contact
columns as the steps the time loop takes one by one, to the bit."""
import numpy as np
import pytest

from solver.api import simulate
from solver.contact.tracker import ContactTracker
from solver.integration.closed_steps import ClosedRows, write_rhs
from solver.integration.compiled_runs import CLOSED_RUN_WORK, CLOSED_STEP_DOFS, FREE_RUN_WORK
from solver.integration.newmark import NewmarkIntegrator
from solver.integration.onset_steps import step_parameters
from solver.jit import _fused, fused, njit
from solver.system.assembly import Assembly
from solver.system.compile import compile_model
from solver.system.initial import initial_state
from solver.system.state import State

from .test_lagrange_examples import example
from .test_lagrange_open_steps import assert_same_run


def runs(doc, monkeypatch):
    """``doc`` run with closed steps compiled and one by one: (results, results, steps the compiled
    runs of closed steps took)."""
    taken = []
    steps = ClosedRows.steps

    def counted(self, *args):
        out = steps(self, *args)
        taken.append(max(out[0], 0) - out[1])  # a step handed over is taken again by the loop's rules
        return out

    monkeypatch.setattr(ClosedRows, "steps", counted)
    compiled = simulate(doc)
    monkeypatch.setattr(ClosedRows, "ready", lambda self, s: False)
    return compiled, simulate(doc), sum(taken)


@pytest.mark.parametrize("name, solver, share", [
    ("bar_mass_impact_lagrange", {"output_interval": 0.01}, 0.9),
    ("bar_mass_impact_lagrange", {"output_interval": 0.0, "end_time": 0.3}, 0.9),
    ("two_bars_impact", {"output_interval": 4e-5, "end_time": 9e-4}, 0.95),
    ("rod_floor_flexible", {"output_interval": 2e-4, "end_time": 0.012}, 0.6)])
def test_closed_steps_are_compiled_and_are_the_python_steps_to_the_bit(name, solver, share, monkeypatch):
    """The bar struck by a mass (a node pair, frictionless: 137 of its 145 steps in contact compiled, the onset steps the loop's;
    with a frame at every step, runs of one step), the two bars (undamped: the created energy
    watched after each step; both onsets, 0.9 ms) and the rod on the floor with mu = 0.8 (a ground
    line, sliding and sticking, the friction power in the ledger; 12 ms)."""
    doc = example(name, record={"steps": True}, **solver)
    compiled, stepped, taken = runs(doc, monkeypatch)
    assert taken >= share * compiled.meta["impact_steps"] > 0
    assert_same_run(compiled, stepped)


def test_rows_right_hand_side_is_the_contact_models_to_the_bit():
    """The right-hand side of a closed pair's rows written in the compiled run equals the Lagrange
    model's own (``J_n . q - g + g_held``, its fused sum in order) at states along the bar struck by a
    mass, the striker pressed in up to 10 micrometres and turned by up to 1e-3 rad."""
    system = compile_model(example("bar_mass_impact_lagrange"))
    contacts = ContactTracker(Assembly(system), system.settings)
    model, s = contacts.models[0], initial_state(contacts.asm)
    model.state[0], model.hold[0] = 1, 3e-7
    rows = ClosedRows(contacts, 1e-6, NewmarkIntegrator(contacts.asm, system.settings))
    rng = np.random.default_rng(7)
    for _ in range(200):
        q = s.q + 1e-5 * rng.standard_normal(s.q.shape)
        moved = State(s.t, q, s.v, s.a, s.lam)
        expected = contacts.rows(moved)
        rows.begin(moved, np.array([1e-3]), np.array([1e-3]))
        write_rhs(rows.kinds, rows.dofs, rows.frames, rows.modes, rows.first, rows.props, rows.rows.dofs,
                  rows.rows.row, rows.rows.rhs, q)
        assert rows.rows.rhs.tolist() == expected.rhs.tolist()


@njit(cache=True)
def fused_dot(x, y):
    acc = 0.0
    for i in range(x.shape[0]):
        acc = fused(x[i], y[i], acc)
    return acc


def test_a_fused_sum_is_the_in_order_sum_of_fused_products():
    """The compiled fused sum of 9-element vectors is their sum in order with one fused multiply-add
    per element, to the bit, as the intrinsic's plain-Python stand-in gives it (:mod:`solver.fused`),
    and within a few ulps of numpy's dot product (to the bit with OpenBLAS's Haswell ``ddot``, not
    with its Zen kernel on an AMD EPYC); a plain sum is another number."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((500, 9)) * 10.0 ** rng.uniform(-3, 3, (500, 9))
    y = rng.standard_normal((500, 9))
    ours = [fused_dot(a, b) for a, b in zip(x, y)]
    plain = []
    for a, b in zip(x.tolist(), y.tolist()):
        acc = 0.0
        for u, w in zip(a, b):
            acc = _fused(u, w, acc)
        plain.append(acc)
    assert ours == plain
    scale = np.abs(x * y).sum(axis=1)
    np.testing.assert_array_less(np.abs(np.array(ours) - np.einsum("ij,ij->i", x, y)), 8 * np.finfo(float).eps * scale)
    assert any(sum((a * b).tolist()) != o for a, b, o in zip(x, y, ours))


def test_the_onset_steps_are_compiled_runs_too(monkeypatch):
    """The steps of :data:`~solver.contact.lagrange.ONSET_STEPS` (half the impact step), the damped one
    (tau 0.9, its own Newmark matrix, its loss booked as the onset's restitution:
    :mod:`~solver.integration.onset_steps`) and the two undamped ones, are a compiled run: of the bar
    struck by a mass's steps in contact (two contacts) only the release step of each is the loop's
    (two; four when the loop took the damped step, eight before that), and the run is the one-by-one
    run to the bit, its factorisations and restitution too."""
    doc = example("bar_mass_impact_lagrange", record={"steps": True}, output_interval=0.01)
    compiled, stepped, taken = runs(doc, monkeypatch)
    releases = sum(e["kind"] == "separation" for e in compiled.events)
    assert releases == 2
    assert compiled.meta["impact_steps"] - taken == releases
    assert compiled.meta["factorizations"] == stepped.meta["factorizations"]
    assert_same_run(compiled, stepped)


@pytest.mark.parametrize("end", [0.13366941738225, 0.1325])
def test_a_run_goes_on_across_the_onset_steps_and_the_steps_growing_back(end, monkeypatch):
    """From the onset, its damped step and the two undamped onset steps (half the impact step), a step
    of twice their size and the impact steps are one compiled run, its Newmark matrix factorised anew
    for each size and each (nu, tau) inside it (four runs before, a size each, the damped step the loop's), the one-by-one
    run to the bit; to the end of the run in contact, at a time on the steps' grid (its last step
    within round-off of the others: their factors kept, ``NEAR_STEP``) or off it (the last two steps
    sharing what is left, :func:`~solver.integration.step_ends.step_towards`)."""
    sizes = []
    begin = ClosedRows.begin

    def planned(self, s, times, *steps):
        sizes.append(np.diff(times, prepend=s.t))
        return begin(self, s, times, *steps)

    monkeypatch.setattr(ClosedRows, "begin", planned)
    doc = example("bar_mass_impact_lagrange", record={"steps": True}, output_interval=end, end_time=end)
    compiled, stepped, taken = runs(doc, monkeypatch)
    assert len(sizes) == 1  # one run from the onset steps to the end
    h, impact = sizes[0], 0.00225  # the run's steps (s) and the impact step
    np.testing.assert_allclose(h[:5], [h[0], h[0], h[0], 2 * h[0], impact], rtol=1e-12)
    assert h[0] < 0.5 * impact and h[-1] != impact
    assert abs(h[-1] - impact) < 1e-9 * impact if end != 0.1325 else abs(h[-1] - h[-2]) < 1e-9 * impact < impact - h[-1]
    assert taken == compiled.meta["impact_steps"] == len(h)
    assert compiled.meta["factorizations"] == stepped.meta["factorizations"]
    assert_same_run(compiled, stepped)


def test_closed_runs_of_a_big_model_are_as_long_as_their_cpu_allows(monkeypatch):
    """A run of closed steps of the two bars (726 dofs, undamped: the watch's beam energies of every
    state) may take :func:`~solver.integration.compiled_runs.run_budget`'s 256 steps, about 20 ms as a
    run of free steps is (not ``FREE_RUN_WORK // n``, 45 steps, 3.6 ms, each run with its planning,
    rows, ledger and looks): its longest run in contact plans more than 45 steps (256 in 0.9 ms,
    fails on the old cap), and the run is the one-by-one run to the bit."""
    planned = []
    begin = ClosedRows.begin

    def counted(self, s, times, *steps):
        planned.append(len(times))
        return begin(self, s, times, *steps)

    monkeypatch.setattr(ClosedRows, "begin", counted)
    doc = example("two_bars_impact", record={"steps": True}, output_interval=9e-4, end_time=9e-4)
    compiled, stepped, taken = runs(doc, monkeypatch)
    assert FREE_RUN_WORK // 726 < max(planned) <= CLOSED_RUN_WORK // (726 + CLOSED_STEP_DOFS)
    assert taken >= 0.95 * compiled.meta["impact_steps"]
    assert_same_run(compiled, stepped)


def test_a_runs_first_step_after_an_onset_has_the_damped_newmark_parameters():
    """The steps of a run from an onset: the first with tau = 0.9 and eq. (5.1)'s nu = (0.9 + 0.5)^2 / 4
    = 0.49, from an acceleration of zero (the last column 1), the two undamped onset steps and those after
    them with the run's (0.2525, 0.51) from their start's; a run after the damped step, all with the run's."""
    sizes = np.array([1e-4, 1e-4, 1e-4, 2e-4])
    params = step_parameters(sizes, 3, 0.2525, 0.51)
    np.testing.assert_array_equal(params[:, 0], sizes)
    assert params[0, 1:].tolist() == pytest.approx([0.49, 0.9, 1.0], rel=1e-15)
    assert params[1:, 1:].tolist() == [[0.2525, 0.51, 0.0]] * 3
    assert step_parameters(sizes, 2, 0.2525, 0.51)[:, 1:].tolist() == [[0.2525, 0.51, 0.0]] * 4


@pytest.mark.parametrize("name, solver", [("bar_mass_impact_lagrange", {"output_interval": 0.01}),
                                          ("bar_mass_impact_lagrange", {"output_interval": 0.0, "end_time": 0.6}),
                                          ("two_bars_impact", {"output_interval": 1e-4})])
def test_a_release_is_taken_again_in_the_closed_run_that_meets_it(name, solver, monkeypatch):
    """The step at whose end a pair's normal force turns tensile is taken again to end at the release
    (the force interpolated linearly to zero, thesis §4.1) in the closed run that handed it to the loop,
    not by the loop in Python (:mod:`~solver.integration.release_landing`): both releases of the bar
    struck by a mass (damped: the run's energy screen), with a frame every 10 ms and at every step, and of
    the two bars (undamped: the screen's test on the handed step alone); the loop takes that attempt, and
    the run is the one-by-one run to the bit, its factorisations and rejected attempts too."""
    used = []
    take = ClosedRows.take_retake

    def counted(self, s, step):
        out = take(self, s, step)
        used.append(out is not None)
        return out

    monkeypatch.setattr(ClosedRows, "take_retake", counted)
    doc = example(name, record={"steps": True}, **solver)
    compiled, stepped, _taken = runs(doc, monkeypatch)
    assert sum(e["kind"] == "separation" for e in compiled.events) == sum(used) == 2
    for key in ("factorizations", "rejected_steps", "newton_iterations"):
        assert compiled.meta[key] == stepped.meta[key], key
    assert_same_run(compiled, stepped)


@pytest.mark.parametrize("mode, sigma", [(1, 1.0), (1, -1.0), (2, 0.0)])
def test_run_friction_powers_are_the_models_friction_power_at_each_state_to_the_bit(mode, sigma):
    """The friction power of a closed run's steps (:meth:`~solver.contact.lagrange.LagrangeModel.run_friction_powers`,
    the Jacobians of the run's start) equals the contacts' at each step's own state (its Jacobians those of
    its configuration), sliding either way and sticking, for the rod on the floor (a ground line, mu = 0.8) at
    states moved and turned from the run's start."""
    system = compile_model(example("rod_floor_flexible"))
    contacts = ContactTracker(Assembly(system), system.settings)
    model, s = contacts.models[0], initial_state(contacts.asm)
    model.state[:], model.sigma[:] = 0, 0.0
    model.state[0], model.sigma[0] = mode, sigma
    contacts.rows(s)  # the multipliers laid out for these modes
    rng = np.random.default_rng(3)
    Q = s.q + 1e-3 * rng.standard_normal((20, len(s.q)))
    V = rng.standard_normal((20, len(s.q)))
    lams = 10.0 * rng.standard_normal((20, mode))
    lams[:, 0] = np.abs(lams[:, 0])  # pressing: a pulling pair transmits nothing (the next step releases it)
    got = model.run_friction_powers(s.q, V, lams) + 0.0
    expected = [contacts.contact_power(State(s.t, q, v, s.a, s.lam, None, lam))[0] for q, v, lam in zip(Q, V, lams)]
    assert got.tolist() == expected
    assert np.count_nonzero(got) == 20
