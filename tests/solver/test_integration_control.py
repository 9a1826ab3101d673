"""Time-loop control: numerical damping, generalized-alpha, step cutting, cancel, breakpoints."""
import numpy as np
import pytest

import solver.integration.newmark as newmark
import solver.integration.compiled_runs as compiled_runs
from solver.api import iter_simulation, load_model, simulate
from solver.model.io import examples_dir
from solver.results.frames import Frame, Results

from .builders import beam_model, rigid_slider_crank


def plucked_cantilever(**solver):
    """A cantilever pushed by a tip force that is released at t = 0.05 s, then vibrating."""
    settings = {"end_time": 1.0, "step": 2e-3, "output_interval": 0.01}
    settings.update(solver)
    return beam_model(
        L=1.0, EI=100.0, EA=1e7, rhoA=2.0, n=6,
        loads=[{"node": "tip", "fy": -1.0, "function": {"kind": "window", "t_on": 0.0, "t_off": 0.05}}],
        solver=settings,
    )


def vibration_energy(res):
    return res.energy("kinetic") + res.energy("strain")


def test_trapezoidal_rule_keeps_vibration_energy():
    E = vibration_energy(simulate(plucked_cantilever()))
    free = E[10:]
    assert np.ptp(free) < 1e-3 * free.mean()


@pytest.mark.parametrize("solver", [{"tau": 0.6}, {"integrator": "generalized_alpha", "rho_inf": 0.5}])
def test_numerical_damping_dissipates_high_frequencies(solver):
    """tau > 0.5 with nu = 0.25 (tau + 0.5)^2 (eq. 5.1), or generalized-alpha with rho_inf < 1."""
    damped_res = simulate(plucked_cantilever(step=1e-2, **solver))
    damped = vibration_energy(damped_res)
    assert damped_res.completed
    assert damped[-1] < 0.99 * damped[10]


def test_generalized_alpha_without_dissipation_matches_newmark_on_a_mechanism():
    ref = simulate(rigid_slider_crank(steps_per_rev=1000))
    ga = simulate(dict(rigid_slider_crank(steps_per_rev=1000), solver={**rigid_slider_crank(steps_per_rev=1000)["solver"], "integrator": "generalized_alpha", "rho_inf": 0.9}))
    np.testing.assert_allclose(ga.stack("node_xy"), ref.stack("node_xy"), atol=1e-9)
    tau_ref, tau_ga = ref.stack("driver_reaction")[:, 0], ga.stack("driver_reaction")[:, 0]
    assert np.abs(tau_ga - tau_ref)[50:].max() < 5e-3 * np.abs(tau_ref).max()


def ordinary_steps_only(monkeypatch):
    """Every step taken one by one through :meth:`NewmarkIntegrator.step` (no compiled runs)."""
    monkeypatch.setattr(newmark.NewmarkIntegrator, "runs_free_steps", property(lambda self: False))


def test_newton_failure_cuts_the_step_then_stops_keeping_results(monkeypatch):
    doc = rigid_slider_crank(steps_per_rev=200)
    ordinary_steps_only(monkeypatch)
    real_step = newmark.NewmarkIntegrator.step
    tries = []

    def failing(self, s, h, breakpoint=None, rows=None):
        if s.t > 0.01:
            tries.append(h)
            raise newmark.NewtonFailure("Newton did not converge in 25 iterations (out-of-balance 1e+06 N)")
        return real_step(self, s, h, breakpoint, rows)

    monkeypatch.setattr(newmark.NewmarkIntegrator, "step", failing)
    res = simulate(doc)
    assert res.meta["status"] == "failed"
    assert "stopped at t = 0.01" in res.meta["message"] and "Newton did not converge" in res.meta["message"]
    assert len(tries) == doc.get("solver", {}).get("max_step_cuts", 8) + 1
    assert tries[-1] == pytest.approx(tries[0] / 2 ** (len(tries) - 1))
    assert res.time[-1] > 0.01 and len(res.frames) > 10


def run_arrays(res):
    """Everything a run's frames, steps and counters hold, as arrays."""
    out = {name: res.stack(name) for name in ("node_xy", "node_v", "node_a", "rot", "rot_v", "rot_a", "axial_force",
                                              "bending_moment", "midspan", "driver_reaction")}
    out.update({f"energy.{key}": res.energy(key) for key in res.frames[0].energy})
    out["steps"] = np.array([(s.time, s.step, s.newton_iterations) for s in res.steps])
    out["counters"] = np.array([res.meta["factorizations"], res.meta["residual_evaluations_per_step"]])
    return out


@pytest.mark.parametrize("integrator", [{}, {"integrator": "generalized_alpha", "rho_inf": 0.8},
                                        {"modified_newton": False}])
def test_compiled_runs_of_free_steps_give_the_ordinary_steps_bit_for_bit(monkeypatch, integrator):
    """The flexible slider-crank (drivers only: its steps go in compiled runs) with the runs
    and taken step by step: every output, step record and counter identical, not just close."""
    doc = load_model(examples_dir() / "slider_crank_flexible.json")
    doc["solver"].update(end_time=0.01, output_interval=3e-4, **integrator)
    fast = simulate(doc)
    ordinary_steps_only(monkeypatch)
    slow = simulate(doc)
    assert fast.completed and slow.completed and len(fast.steps) == len(slow.steps) > 200
    a, b = run_arrays(fast), run_arrays(slow)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_a_step_that_fails_in_a_compiled_run_is_cut_as_an_ordinary_one(monkeypatch):
    """Newton failing inside a run of free steps hands the step back: the loop cuts it as it
    cuts a failed ordinary step (halving it at once) and stops with the same message."""
    doc = rigid_slider_crank(steps_per_rev=200)
    real_run, real_step = compiled_runs.free_run, newmark.NewmarkIntegrator.step
    tries = []

    def failing_run(integ, s, h, times, targets, accs, drivers, record=False, gaps=None):
        keep = sum(1 for t0 in [s.t, *times[:-1]] if t0 <= 0.01)  # steps that start after 0.01 s fail
        if keep == len(times):
            return real_run(integ, s, h, times, targets, accs, drivers, record, gaps)
        new, iterations, p_drv, _failure, states = real_run(integ, s, h, times[:keep], targets[:keep], accs[:keep],
                                                            drivers, record, gaps)
        tries.append(times[keep] - times[keep - 1] if keep else h)
        return new, iterations, p_drv, newmark.NewtonFailure("Newton did not converge in 25 iterations"), states

    def failing_step(self, s, h, breakpoint=None, rows=None):
        if s.t > 0.01:
            tries.append(h)
            raise newmark.NewtonFailure("Newton did not converge in 25 iterations (out-of-balance 1e+06 N)")
        return real_step(self, s, h, breakpoint, rows)

    monkeypatch.setattr(compiled_runs, "free_run", failing_run)
    monkeypatch.setattr(newmark.NewmarkIntegrator, "step", failing_step)
    res = simulate(doc)
    assert res.meta["status"] == "failed" and "stopped at t = 0.01" in res.meta["message"]
    assert len(tries) == 9 and res.steps[-1].time - res.steps[-1].step <= 0.01 < res.steps[-1].time


def test_cancel_stops_between_steps_and_keeps_frames():
    calls = {"n": 0}

    def cancel():
        calls["n"] += 1
        return calls["n"] > 2  # a frame at every step: polled between blocks of frames

    items = list(iter_simulation(rigid_slider_crank(steps_per_rev=4000), cancel=cancel))
    res = items[-1]
    assert isinstance(res, Results) and all(isinstance(f, Frame) for f in items[:-1])
    assert res.meta["status"] == "cancelled"
    assert len(res.frames) == len(items) - 1 >= 20


def test_steps_land_on_breakpoints():
    res = simulate(plucked_cantilever(step=0.003))
    times = np.array([s.time for s in res.steps])
    assert np.min(np.abs(times - 0.05)) < 1e-15


def test_progress_callback_reports_simulated_time():
    seen = []
    simulate(rigid_slider_crank(revs=0.2), progress=lambda t, t_end: seen.append((t, t_end)))
    assert seen[-1][0] == pytest.approx(seen[-1][1])
    assert all(b[0] >= a[0] for a, b in zip(seen, seen[1:]))


def test_a_sketch_point_that_nothing_carries_stays_put():
    """A node without mass, link or joint (a reference point) is held where it is drawn."""
    doc = {"format": "flexmech", "version": 1, "nodes": [{"id": "mark", "x": 0.3, "y": 0.2}],
           "bodies": [{"id": "stone", "x": 0.0, "y": 1.0, "mass": 1.0}], "gravity": {"y": -10.0},
           "solver": {"end_time": 0.1, "step": 0.01}}
    res = simulate(doc)
    assert res.completed
    assert res.stack("node_xy")[:, res.node_index("mark")] == pytest.approx(np.array([[0.3, 0.2]] * len(res.frames)))
