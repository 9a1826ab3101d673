"""No sliver of a last step (issue 26): the last step before the end of a run or a breakpoint is
never shorter than half a step (:mod:`solver.integration.step_ends`), so the last frame is as
right as every other.  Before: 0.6 s in steps of 5e-4 s summed to 0.5999999999999893 s and the
loop took a last step of 1.07e-14 s, on which a moving mass's tangential force read 926 N
instead of -3.2 N; an end time of 0.1 s + 1e-12 s took a step of 1e-12 s."""
from __future__ import annotations

import numpy as np
import pytest

from solver.api import simulate
from solver.integration.step_ends import LAST_STEP_FRACTION, step_towards
from solver.model.io import examples_dir, load_model
from solver.results.validity import run_warnings


def _run(name: str, end: float, step: float, **solver):
    """The example ``name`` run to ``end`` in steps of ``step``, with an impact step of 1e-6 s (the
    end's old tolerance, 1e-9 of the smallest step, was then below the round-off of the times)."""
    doc = load_model(examples_dir() / f"{name}.json")
    doc["solver"].update(end_time=end, step=step, impact_step=1e-6, record={"steps": True}, **solver)
    res = simulate(doc)
    assert res.completed, res.meta["message"]
    return res


def _steps(res) -> np.ndarray:
    return np.array([s.step for s in res.steps])


def test_the_rule_splits_what_is_left_and_absorbs_round_off():
    assert step_towards(0.5994999999999894, 5e-4, 0.6) == 0.6 - 0.5994999999999894  # round-off: reaches it
    assert step_towards(0.0, 1.0, 1.2) == pytest.approx(0.6)  # two steps of 0.6, not 1 and 0.2
    assert step_towards(0.0, 1.0, 1.6) == 1.0
    t, h, steps = 0.0, 7e-4, []
    while t < 0.1:  # 0.1 s in steps of 7e-4 s: 142 steps, the last two of 4.5e-4 s
        steps.append(step_towards(t, h, 0.1))
        t += steps[-1]
    assert t == 0.1 and min(steps) >= LAST_STEP_FRACTION * h and max(steps) <= h


def test_a_moving_mass_whose_steps_sum_short_of_the_end_keeps_its_last_frame():
    """0.6 s in steps of 5e-4 s: the last step is a whole step, the last frame's forces follow the
    frame before (the tangential force changes by 0.01 N per step here), the frames fall on the
    output times."""
    res = _run("moving_mass_beam", 0.6, 5e-4, output_interval=0.05)
    assert _steps(res).min() > (1 - 1e-9) * 5e-4
    assert res.frames[-1].time == 0.6
    last, before = res.frames[-1].moving_force[0], res.frames[-2].moving_force[0]
    assert abs(last[1] - before[1]) < 5.0  # N (-3.19 and -8.11 at 0.55 s; 925.5 before the fix)
    # the force of a whole last step, N (-835.62 while the mass's velocity error rang it by +-5 N
    # from step to step about -831.5; +-2 N since its velocity is that of its travel, issue 26)
    assert last[0] == pytest.approx(-832.00, abs=0.05)
    times = np.array([f.time for f in res.frames])
    assert np.abs(times - 0.05 * np.arange(len(times))).max() < 1e-12  # 0.5505 s before: a step late


def test_a_rolling_disc_whose_end_time_is_not_a_multiple_of_the_step():
    """0.1 s + 5e-13 s in steps of 1 ms: the last step takes the 5e-13 s in (before: a step of
    5e-13 s); the disc's normal force on the last frame follows its neighbours.  (At 1e-12 s, the round-off
    allowance ``ROUND_OFF h`` itself, the steps landing on the frames at k ms leave the last one a rounding
    past it: two half steps share it, no sliver either.)"""
    res = _run("disc_rolling_beam", 0.1 + 5e-13, 1e-3, output_interval=1e-3)
    steps = _steps(res)
    assert steps.min() > 0.999e-3 and steps[-1] == pytest.approx(1e-3 + 5e-13, abs=1e-15)
    F = np.array([f.contact["F_n_N"][0] for f in res.frames])
    assert abs(F[-1] - F[-2]) < 2 * np.abs(np.diff(F[-6:-1])).max()
    assert not run_warnings(res)


def test_an_impact_run_ends_on_half_a_step_at_least():
    """The rigid rod striking the ground (LAJSS 2024) leaves it at 24 us and flies on in steps of
    1 ms ending at 24 us + k ms; stopped 1e-11 s after one of them, it shares the last 1 ms + 1e-11 s
    between two steps (before: a last step of 1e-11 s) and keeps its energy to the end."""
    res = _run("rod_impact_rigid", 0.049024 + 1e-11, 1e-3)
    steps = _steps(res)
    assert steps[-1] >= LAST_STEP_FRACTION * 1e-3 and steps[-2] >= LAST_STEP_FRACTION * 1e-3
    assert res.frames[-1].time == 0.049024 + 1e-11
    assert res.energy("kinetic")[-1] == pytest.approx(res.energy("kinetic")[-2], rel=1e-12)
    assert not run_warnings(res)
