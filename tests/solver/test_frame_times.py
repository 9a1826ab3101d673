"""Frames at their output times ``k * solver.output_interval`` after impacts (docs/results-format.md,
*Frame times*): a contact event ends a step at its instant, and the steps after it land on the next
output time (:func:`solver.integration.step_ends.step_to_output`).  Before, each frame was the first
step end at or after its output time: the pendulum's frames after its impulse at 152.626 ms stood
at 155.626, 160.626 ms ..."""
from __future__ import annotations

import numpy as np
import pytest

from solver.api import simulate
from solver.model.io import examples_dir, load_model

#: the contact models of the struck pendulum (a compliant pair: a linear spring, 10 MN/m)
MODELS = {"impulse": {"kind": "impulse"}, "lagrange": {"kind": "lagrange"},
          "compliant": {"kind": "compliant", "law": "hooke", "stiffness": 1e7, "exponent": 1.0}}


def off_grid(results) -> np.ndarray:
    """Each frame's time less its output time ``k * output_interval`` (s), frame ``k``."""
    times = np.array([f.time for f in results.frames])
    return times - np.arange(len(times)) * results.meta["solver"]["output_interval"]


@pytest.mark.parametrize("kind", list(MODELS))
def test_the_frames_after_an_impact_stand_at_their_output_times(kind):
    """Predebon's pendulum (steps of 1 ms, frames every 5 ms) strikes its surface at 152.6 ms and
    bounces on to 0.2 s: every frame at ``k`` times 5 ms, within 1e-12 s."""
    model = load_model(examples_dir() / "pendulum_impact.json")
    model["contacts"][0]["model"] = MODELS[kind]
    model["solver"]["end_time"] = 0.2
    results = simulate(model)
    assert results.meta["status"] == "completed", results.meta["message"]
    assert any(e["kind"] == "contact_start" for e in results.events)
    assert len(results.frames) == 41
    assert np.abs(off_grid(results)).max() < 1e-12


def test_the_frames_of_a_clearance_joint_stand_at_their_output_times():
    """A pin in its bore (compiled runs of closed compliant steps, :mod:`~solver.integration.closed_circles`,
    steps shrinking to the penetration's accuracy in contact) with frames every 0.1 ms: at their times."""
    model = load_model(examples_dir() / "slider_crank_clearance_hertz.json")
    model["solver"].update(end_time=0.003, output_interval=1e-4)
    results = simulate(model)
    assert results.meta["status"] == "completed", results.meta["message"]
    assert results.meta["compliant_contacts"]
    assert len(results.frames) == 31
    assert np.abs(off_grid(results)).max() < 1e-12


@pytest.mark.parametrize("end, frames", [(0.01, 35), (0.00991, 34)])
def test_the_frames_of_compiled_free_runs_stand_at_their_output_times(end, frames):
    """The flexible slider-crank (compiled runs of free steps) at a step of 41.9 us with frames every
    0.3 ms, 7.16 steps: every frame at ``k`` times 0.3 ms and one at the end; an output time less than
    half a step before the end (9.9 ms, 10 us before 9.91 ms) gives way to the end's frame."""
    model = load_model(examples_dir() / "slider_crank_flexible.json")
    model["solver"].update(end_time=end, output_interval=3e-4)
    results = simulate(model)
    assert results.meta["status"] == "completed", results.meta["message"]
    assert len(results.frames) == frames
    assert np.abs(off_grid(results)[:-1]).max() < 1e-12
    assert results.frames[-1].time == pytest.approx(end, abs=1e-12)
